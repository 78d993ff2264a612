/**
 * How the charts name a state or a behavior (pure): an imported run's discovered ones by their titles
 * (core/import/titles: `"I need to…" · 64–127 words` for `i-need-to·64-127-words`), cut with "…" to
 * fit a legend, a picker or a plot label, the whole title and the key name on hover; a name with no
 * title (the lab's own tasks, a rule's label, a log's own state) reads as itself, as before.
 */
import { titleOf, type LabelTitles } from '../../core/import/index';

export type NameKind = 'state' | 'behavior';

/** Narrow characters' room a legend entry or a picker option gives a title (longer ones are cut; the whole on hover). */
export const LEGEND_CHARS = 34;
/** …and a tooltip row (it has the room of the plot beside the cursor). */
export const TIP_CHARS = 64;

export interface ChartNames {
  /** Whether any state or behavior has a title (an imported run's discovery). */
  readonly titled: boolean;
  /** What a person reads for `name` where lines wrap (a legend, a picker, a tooltip): its title cut to `max` narrow characters, longer where that would not tell it apart; or the name itself. */
  short(kind: NameKind, name: string, max?: number): string;
  /** …in a room it must not overprint (a label in a plot): cut to `max` whatever else begins the same. */
  fit(kind: NameKind, name: string, max: number): string;
  /** Its whole title, or the name itself. */
  full(kind: NameKind, name: string): string;
  /** The hover text of a titled name: the whole title and the key name the metrics and exports use; none for a name with no title. */
  hover(kind: NameKind, name: string): string | undefined;
}

// East Asian wide characters (CJK, kana, Hangul, full-width forms) take about two narrow ones' room
const WIDE = /[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA960-\uA97F\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{20000}-\u{3FFFD}]/u;
const widthOf = (ch: string) => (WIDE.test(ch) ? 2 : 1);

/** How many narrow characters' room `text` takes (a wide one counts two). */
export function textChars(text: string): number {
  let w = 0;
  for (const ch of text) w += widthOf(ch);
  return w;
}

/** `text` in at most `max` narrow characters' room: cut at the last word end that fits, with "…" (a word longer than that, or a text with no spaces, is cut inside). */
export function cut(text: string, max: number): string {
  if (textChars(text) <= max) return text;
  const chars = [...text];
  let n = 0;
  for (let w = 0; n < chars.length && w + widthOf(chars[n]) <= max - 1; n++) w += widthOf(chars[n]);
  n = Math.max(1, n);
  const room = chars.slice(0, n).join('');
  // a word end: where the room ends before a space, else its last space
  const end = /\s/.test(chars[n] ?? '') ? room.length : room.search(/\s\S*$/);
  const kept = (end >= room.length / 2 ? room.slice(0, end) : room).replace(/[\s·,;:–—-]+$/u, '');
  return `${kept}…`;
}

/**
 * `title` cut to `max`, or longer where what it shows is how another of `others` begins (two
 * `"I need to…" · 128–255 words · no…` in one legend): the shortest cut that tells it apart.
 */
function cutApart(title: string, others: readonly string[], max: number): string {
  let c = cut(title, max);
  const begins = (o: string) => o !== title && c !== title && o.startsWith(c.slice(0, -1));
  let same = others.filter(begins);
  for (let m = max + 1; same.length && c !== title; m++) {
    c = cut(title, m);
    same = same.filter(begins);
  }
  return c;
}

export function chartNames(titles: LabelTitles | null | undefined): ChartNames {
  const full = (kind: NameKind, name: string) => titleOf(titles, kind, name);
  // a legend redraws with every step of a followed run: each cut is made once
  const made = new Map<string, string>();
  return {
    titled: !!titles && Object.keys(titles.states).length + Object.keys(titles.behaviors).length > 0,
    short: (kind, name, max = LEGEND_CHARS) => {
      const t = full(kind, name);
      if (t === name) return name;
      const key = `${kind}\u0000${name}\u0000${max}`;
      let c = made.get(key);
      if (c === undefined) made.set(key, (c = cutApart(t, Object.values(kind === 'state' ? titles!.states : titles!.behaviors), max)));
      return c;
    },
    fit: (kind, name, max) => {
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
