// The gate editor's pure logic: the core's parse errors located by line and character, the field
// name under the cursor and its completions, and how a draft follows the gate the run applies.
// No DOM, no runes (unit-tested in editor.test.ts).
import { checkField } from '../../core/config';
import { checkGateText, type Gate } from '../../core/gates/index';

export interface Problem {
  /** 1-based line of the editor text. */
  line: number;
  /** 1-based first character, and one past the last, within that line. */
  col: number;
  end: number;
  reason: string;
  /** The line's text (the editor shows the span under it). */
  text: string;
}

export interface DraftCheck {
  /** The parsed gate when the text has no problem (and fits the setting's length limit). */
  gate: Gate | null;
  problems: Problem[];
}

/**
 * Every problem of a gate's text, each at its line and character (the reasons come from the core);
 * `asSetting`: also the `gate` setting's own check (its length limit), which Apply must pass.
 */
export function checkDraft(text: string, asSetting = true): DraftCheck {
  const lines = text.split('\n');
  const { gate, errors, lines: ruleLines } = checkGateText(text);
  const problems = errors.map((e): Problem => {
    const n = ruleLines[e.rule] ?? 0;
    const t = (lines[n] ?? '').replace(/\r$/, '');
    const col = Math.min(e.pos, t.length) + 1;
    return { line: n + 1, col, end: Math.max(col + 1, Math.min(e.end, t.length) + 1), reason: e.reason, text: t };
  });
  // the config's own check (e.g. its length limit) decides what Apply may send
  const limit = problems.length || !asSetting ? null : checkField('gate', text);
  if (limit) problems.push({ line: 1, col: 1, end: 1, reason: limit, text: '' });
  return { gate: problems.length ? null : gate, problems };
}

/** "line 3, character 12: reason" */
export function problemText(p: Problem): string {
  return `line ${p.line}, character ${p.col}: ${p.reason}`;
}

export interface Word {
  start: number;
  end: number;
  text: string;
}

const ID = /[A-Za-z0-9_]/;

/** The identifier that ends at the cursor (a field name being typed), or null. */
export function wordAt(text: string, cursor: number): Word | null {
  let start = cursor;
  while (start > 0 && ID.test(text[start - 1])) start--;
  let end = cursor;
  while (end < text.length && ID.test(text[end])) end++;
  if (start === cursor || /[0-9]/.test(text[start])) return null;
  // after "=>" come decisions, after "#" a label: no field names there
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const before = text.slice(lineStart, start);
  if (before.includes('=>') || before.includes('#') || inString(before)) return null;
  return { start, end, text: text.slice(start, end) };
}

function inString(s: string): boolean {
  let quote: string | null = null;
  for (let i = 0; i < s.length; i++) {
    if (quote) {
      if (s[i] === '\\') i++;
      else if (s[i] === quote) quote = null;
    } else if (s[i] === '"' || s[i] === "'") quote = s[i];
  }
  return quote !== null;
}

/** Field names that start with the typed prefix (then those that contain it), at most `max`; none for an exact name. */
export function completions(prefix: string, names: readonly string[], max = 8): string[] {
  const p = prefix.toLowerCase();
  if (!p || names.includes(prefix)) return [];
  const starts = names.filter((n) => n.startsWith(p));
  const contains = names.filter((n) => !n.startsWith(p) && n.includes(p));
  return [...starts, ...contains].slice(0, max);
}

/** Replace the word with a completion; the cursor goes after it. */
export function complete(text: string, word: Word, name: string): { text: string; cursor: number } {
  return { text: text.slice(0, word.start) + name + text.slice(word.end), cursor: word.start + name.length };
}

/** The gate text a config trains with, as the editor shows it ('' = the method's built-in rules). */
export function appliedText(gateSetting: string, builtin: string): string {
  return gateSetting.trim() !== '' ? gateSetting : builtin;
}

export interface Draft {
  /** What the editor holds. */
  text: string;
  /** The applied gate's text when the draft last followed it. */
  applied: string;
}

/**
 * The run's gate changed (Apply, a lesson, a reset): an untouched draft follows it; an edited
 * draft is kept as typed (nothing typed is lost).
 */
export function follow(d: Draft, applied: string): Draft {
  if (applied === d.applied) return d;
  return { text: d.text === d.applied ? applied : d.text, applied };
}

/** The text Apply sends: trailing spaces and blank lines at either end removed (rule lines keep their positions). */
export function normalized(text: string): string {
  return text
    .split('\n')
    .map((l) => l.replace(/\s+$/, ''))
    .join('\n')
    .replace(/^\n+|\n+$/g, '');
}

/** A draft kept in the tab's session storage (a reload keeps what was typed); null when absent or not a draft. */
export function storedDraft(json: string | null): (Draft & { open: boolean }) | null {
  if (!json) return null;
  try {
    const o = JSON.parse(json) as Record<string, unknown>;
    const ok = typeof o.text === 'string' && typeof o.applied === 'string' && o.text.length <= 20_000 && o.applied.length <= 20_000;
    return ok ? { text: o.text as string, applied: o.applied as string, open: o.open === true } : null;
  } catch {
    return null;
  }
}
