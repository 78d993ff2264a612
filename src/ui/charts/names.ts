/**
 * How the charts name a state or a behavior (pure): an imported run's discovered ones by their titles
 * (core/import/titles: `"I need to…" · 64–127 words` for `i-need-to·64-127-words`), cut with "…" to
 * fit a legend, a picker or a plot label, the whole title and the key name on hover; a name with no
 * title (the lab's own tasks, a rule's label, a log's own state) reads as itself, as before.
 */
import { titleOf, type LabelTitles } from '../../core/import/index';

export type NameKind = 'state' | 'behavior';

/** Characters a legend entry or a picker option shows of a title (longer ones are cut; the whole on hover). */
export const LEGEND_CHARS = 34;
/** …and a tooltip row (it has the room of the plot beside the cursor). */
export const TIP_CHARS = 64;

export interface ChartNames {
  /** Whether any state or behavior has a title (an imported run's discovery). */
  readonly titled: boolean;
  /** What a person reads for `name`: its title cut to `max` characters, or the name itself. */
  short(kind: NameKind, name: string, max?: number): string;
  /** Its whole title, or the name itself. */
  full(kind: NameKind, name: string): string;
  /** The hover text of a titled name: the whole title and the key name the metrics and exports use; none for a name with no title. */
  hover(kind: NameKind, name: string): string | undefined;
}

/** `text` at most `max` characters: cut at the last word end that fits, with "…" (a word longer than that is cut inside). */
export function cut(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const n = Math.max(1, max - 1);
  const room = chars.slice(0, n).join('');
  // a word end: where the room ends before a space, else its last space
  const end = /\s/.test(chars[n]) ? room.length : room.search(/\s\S*$/);
  const kept = (end >= room.length / 2 ? room.slice(0, end) : room).replace(/[\s·,;:–—-]+$/u, '');
  return `${kept}…`;
}

export function chartNames(titles: LabelTitles | null | undefined): ChartNames {
  const full = (kind: NameKind, name: string) => titleOf(titles, kind, name);
  return {
    titled: !!titles && Object.keys(titles.states).length + Object.keys(titles.behaviors).length > 0,
    short: (kind, name, max = LEGEND_CHARS) => {
      const t = full(kind, name);
      return t === name ? name : cut(t, max);
    },
    full,
    hover: (kind, name) => {
      const t = full(kind, name);
      return t === name ? undefined : `${t} — ${kind} ${name}`;
    },
  };
}

/** The names of a run with no titles: every state and behavior by its key name. */
export const KEY_NAMES: ChartNames = chartNames(null);
