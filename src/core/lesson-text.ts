/**
 * A lesson's text and its measured numbers. A lesson (public/presets/<id>.json) writes each number
 * it reports as a placeholder, `{name}`, filled from the lesson's measurement file
 * (public/presets/measured/<id>.json: how it was measured, and the values), so that the text cannot
 * drift from the measurement. `{+name}` writes the sign of a positive value too; a negative value
 * is written with a minus sign (−). The first read — what to do and watch, and what it means — is
 * kept short (FIRST_READ_WORDS); the evidence sits behind "How we know".
 */
import { fieldLabel, fieldSpec, groupedKeys, type ConfigGroup, type ConfigKey } from './config';
import { depthError } from './json-depth';
import { parseValueRule, type ValueRule } from './experiment/lesson-values';

export interface LessonMeasures {
  lesson: string;
  /** How the values were measured (commands, seeds, which base). */
  how: string[];
  values: Readonly<Record<string, number | string>>;
  /**
   * How values over seeds follow from an experiment record (public/experiments/results/): the
   * rule of each such value; a test derives them all again from the records.
   */
  derived: Readonly<Record<string, ValueRule>>;
}

/** The most words a lesson's first read (watch line and meaning) may have. */
export const FIRST_READ_WORDS = 60;

const PLACEHOLDER = /\{(\+?)([A-Za-z][\w.]*)\}/g;

/** The value names a text uses. */
export function placeholdersIn(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[2]);
}

function written(v: number | string, signed: boolean): string {
  if (typeof v === 'string') return v;
  const abs = String(Math.abs(v));
  return v < 0 ? `−${abs}` : signed && v > 0 ? `+${abs}` : abs;
}

/** The text with its placeholders filled; a name the values lack is an error naming `where`. */
export function fillText(text: string, values: LessonMeasures['values'], where: string): string {
  return text.replace(PLACEHOLDER, (_, sign: string, name: string) => {
    if (!Object.hasOwn(values, name)) throw new Error(`${where}: {${name}} is not in the lesson's measurements`);
    return written(values[name], sign === '+');
  });
}

export function wordCount(text: string): number {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

/** A measurement file, checked. */
export function parseMeasures(id: string, obj: unknown): LessonMeasures {
  const deep = depthError(obj, `measurements of ${id}`);
  if (deep) throw new Error(deep);
  if (obj === null || typeof obj !== 'object') throw new Error(`measurements of ${id}: expected an object`);
  const o = obj as Record<string, unknown>;
  if (o.lesson !== id) throw new Error(`measurements of ${id}: "lesson" must be ${JSON.stringify(id)}, got ${JSON.stringify(o.lesson)}`);
  if (!Array.isArray(o.how) || !o.how.every((h) => typeof h === 'string' && h.trim())) throw new Error(`measurements of ${id}: "how" must be a list of lines`);
  if (o.values === null || typeof o.values !== 'object' || Array.isArray(o.values)) throw new Error(`measurements of ${id}: "values" must be an object`);
  for (const [k, v] of Object.entries(o.values)) {
    if (!(typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)))) throw new Error(`measurements of ${id}: values.${k} must be a finite number or a string`);
  }
  const derived: Record<string, ValueRule> = {};
  if (o.derived !== undefined) {
    if (o.derived === null || typeof o.derived !== 'object' || Array.isArray(o.derived)) throw new Error(`measurements of ${id}: "derived" must be an object of rules`);
    for (const [k, rule] of Object.entries(o.derived)) {
      if (!Object.hasOwn(o.values, k)) throw new Error(`measurements of ${id}: derived.${k} names no value`);
      derived[k] = parseValueRule(rule, `measurements of ${id}: derived.${k}`);
    }
  }
  return { lesson: id, how: o.how as string[], values: o.values as Record<string, number | string>, derived };
}

const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The settings a lesson's instruction tells the class to change, by the label the controls show:
 * `set <label> to …`, `tick "<label>"`, `untick "<label>"`.
 */
export function settingsNamedIn(watch: string): ConfigKey[] {
  return groupedKeys()
    .flatMap((g) => g.keys)
    .filter((k) => new RegExp(`\\bset ${escaped(fieldLabel(k))} to\\b|\\b(?:un)?tick "${escaped(fieldLabel(k))}"`, 'iu').test(watch));
}

/** The settings groups those settings sit in: the controls open them when the lesson starts. */
export function groupsNamedIn(watch: string): ConfigGroup[] {
  return [...new Set(settingsNamedIn(watch).map((k) => fieldSpec(k).group))];
}
