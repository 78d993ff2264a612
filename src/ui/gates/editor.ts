// The gate editor's pure logic: the core's parse errors located by line and character, the field
// name under the cursor and its completions, and how a draft follows the gate the run applies.
// No DOM, no runes (unit-tested in editor.test.ts).
import { checkField, fieldSpec } from '../../core/config';
import { checkGate, MAX_GATE_CHARS, type Gate } from '../../core/gates/index';
import { MAX_CHARS, scanTokens } from '../../core/gates/tokens';

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

export interface GateDraftCheck {
  /** The parsed gate when the text has no problem (and fits the setting's length limit). */
  gate: Gate | null;
  problems: Problem[];
}

/**
 * Every problem of a gate's text, each at its line and character (the reasons come from the core);
 * `asSetting`: also the `gate` setting's own check (its length limit), which Apply must pass.
 * Bounded work on every keystroke: a text over the limit is refused before anything is parsed,
 * and what is checked is the text Apply would send (so Apply finds it compiled).
 */
export function checkGateDraft(text: string, asSetting = true): GateDraftCheck {
  const limit = fieldSpec('gate');
  const max = asSetting && limit.type === 'text' ? limit.maxLength : MAX_GATE_CHARS;
  if (text.length > max) {
    return { gate: null, problems: [{ line: 1, col: 1, end: 1, reason: `${text.length} characters is over the limit of ${max}: shorten the gate (nothing was checked)`, text: '' }] };
  }
  const sent = normalized(text);
  // normalized drops the blank lines before the first rule: count them back into the line numbers
  const skipped = text.split('\n').findIndex((l) => l.trim() !== '');
  const lines = sent.split('\n');
  const { gate, errors, lines: ruleLines } = checkGate(sent);
  const problems = errors.map((e): Problem => {
    const n = ruleLines[e.rule] ?? 0;
    const t = (lines[n] ?? '').replace(/\r$/, '');
    const col = Math.min(e.pos, t.length) + 1;
    return { line: n + 1 + Math.max(0, skipped), col, end: Math.max(col + 1, Math.min(e.end, t.length) + 1), reason: e.reason, text: t };
  });
  // the config's own check decides what Apply may send (the gate is compiled already: no second parse)
  const setting = problems.length || !asSetting ? null : checkField('gate', sent);
  if (setting) problems.push({ line: 1, col: 1, end: 1, reason: setting, text: '' });
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

/**
 * The field name at the cursor (being typed), or null: the tokenizer says what is there. Only a
 * name token of the condition counts (before "=>"; not in a string, a number, a decision or the label).
 */
export function wordAt(text: string, cursor: number): Word | null {
  const lineStart = text.lastIndexOf('\n', cursor - 1) + 1;
  const lineEnd = text.indexOf('\n', cursor);
  const line = text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd);
  const col = cursor - lineStart;
  if (col > MAX_CHARS) return null;
  const tokens = scanTokens(line, 'rule');
  const at = tokens.findIndex((t) => t.pos < col && col <= t.end);
  if (at < 0 || tokens[at].kind !== 'name') return null;
  if (tokens.slice(0, at).some((t) => t.kind === 'op' && t.text === '=>')) return null;
  const t = tokens[at];
  return { start: lineStart + t.pos, end: lineStart + t.end, text: t.text };
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
