import { describe, expect, it } from 'vitest';
import { UrlHistory, historyWrite } from './url-history';

/** A browser history of one tab: entries, the current index, Back and Forward. */
function fakeWindow(start: string) {
  const entries = [start];
  let at = 0;
  const location = { get search() { return entries[at]; } };
  const history = {
    pushState: (_: unknown, __: string, url: string) => { entries.splice(at + 1, Infinity, url); at++; },
    replaceState: (_: unknown, __: string, url: string) => { entries[at] = url; },
  };
  return { win: { location, history } as unknown as Window, entries: () => entries.slice(), back: () => entries[--at], forward: () => entries[++at] };
}

describe('historyWrite', () => {
  it('a lesson change pushes, any other change replaces, the same query does nothing', () => {
    expect(historyWrite('a', 'b', '?lesson=a', 'lesson=b')).toBe('push');
    expect(historyWrite('a', null, '?lesson=a', 'v=1')).toBe('push');
    expect(historyWrite('a', 'a', '?lesson=a', 'lesson=a&lr=0.1')).toBe('replace');
    expect(historyWrite(undefined, 'a', '', 'lesson=a')).toBe('replace'); // the first write (the page's own link, decoded)
    expect(historyWrite('a', 'b', '?lesson=b', 'lesson=b')).toBeNull();
  });
});

describe('UrlHistory', () => {
  it('lessons a → b → c leave three entries; Back and Forward walk them, and a setting change stays in its entry', () => {
    const w = fakeWindow('?lesson=a');
    const h = new UrlHistory(w.win);
    h.write('a', 'lesson=a');
    h.write('a', 'lesson=a&lr=0.1'); // a slider: same entry
    h.write('b', 'lesson=b');
    h.write('c', 'lesson=c');
    expect(w.entries()).toEqual(['?lesson=a&lr=0.1', '?lesson=b', '?lesson=c']);
    // Back: the page loads lesson b from the URL and re-encodes it (maybe with other text): no new entry
    w.back();
    h.moved('b');
    h.write('b', 'v=1&lesson=b');
    expect(w.entries()).toEqual(['?lesson=a&lr=0.1', '?v=1&lesson=b', '?lesson=c']);
    expect(w.forward()).toBe('?lesson=c');
  });
});
