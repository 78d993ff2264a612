/**
 * How the lab's URL follows its state in the browser history (pure): a lesson change is a new
 * history entry (Back returns to the lesson before, Forward to the one after, as in any app with
 * pages); every other change (a setting, a view, the state shown) replaces the current entry, so
 * that Back does not step through each slider move.
 */

/** What to do with the history given the lesson of the current entry (undefined: none written yet). */
export function historyWrite(entryLesson: string | null | undefined, lesson: string | null, search: string, query: string): 'push' | 'replace' | null {
  if (search === `?${query}`) return null;
  return entryLesson !== undefined && entryLesson !== lesson ? 'push' : 'replace';
}

/** Keeps the page's URL and history in step with its state (the page's only writer of history). */
export class UrlHistory {
  /** The lesson of the current history entry. */
  #entryLesson: string | null | undefined = undefined;

  constructor(private readonly win: Pick<Window, 'history' | 'location'>) {}

  /** The state changed: write its query (a new entry when the lesson changed). */
  write(lesson: string | null, query: string): void {
    const how = historyWrite(this.#entryLesson, lesson, this.win.location.search, query);
    if (how === 'push') this.win.history.pushState(null, '', `?${query}`);
    else if (how === 'replace') this.win.history.replaceState(null, '', `?${query}`);
    this.#entryLesson = lesson;
  }

  /** Back or Forward moved to an entry: its lesson is the current entry's (the state follows the URL). */
  moved(lesson: string | null): void {
    this.#entryLesson = lesson;
  }
}
