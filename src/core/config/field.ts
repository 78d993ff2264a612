// One value against its field's entry in the schema table: the one validator of a setting's value
// (controls, CLI flags, patches, whole configs all call it).
import { fieldSpec, isConfigKey } from './schema';

/** An unpaired UTF-16 surrogate (a link cannot carry one: encodeURIComponent throws). Global: for search and replace, not test. */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The first unpaired UTF-16 surrogate in `text`, or -1. */
export function loneSurrogateAt(text: string): number {
  return text.search(LONE_SURROGATE);
}

/** Check one value against its field; returns an error message or null. */
export function checkField(key: string, value: unknown): string | null {
  if (!isConfigKey(key)) return 'unknown setting';
  const f = fieldSpec(key);
  if (f.type === 'bool') return typeof value === 'boolean' ? null : `expected a boolean, got ${describeValue(value)}`;
  if (f.type === 'enum') return typeof value === 'string' && f.values.includes(value) ? null : `expected one of ${f.values.join(' | ')}, got ${describeValue(value)}`;
  if (f.type === 'text') {
    if (typeof value !== 'string') return `expected a string, got ${describeValue(value)}`;
    if (value.length > f.maxLength) return `${value.length} characters is over the limit of ${f.maxLength}`;
    const lone = loneSurrogateAt(value);
    if (lone >= 0) return `character ${lone + 1} is half of a character pair (an unpaired surrogate, U+${value.charCodeAt(lone).toString(16).toUpperCase()}); remove it`;
    return value.trim() === '' ? null : f.check(value);
  }
  if (typeof value !== 'number') return `expected a number, got ${describeValue(value)}`;
  if (!Number.isFinite(value)) return `expected a finite number, got ${value}`;
  if (f.type === 'int' && !Number.isInteger(value)) return `expected an integer, got ${value}`;
  if (value < f.min || value > f.max) return `${value} is outside [${f.min}, ${f.max}]`;
  return null;
}

/** A value for an error message; never throws (an object without a usable toString included). */
export function describeValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v);
  if (v === null) return 'null';
  if (typeof v === 'object') {
    let text: string | undefined;
    try {
      text = JSON.stringify(v);
    } catch {
      text = undefined;
    }
    text ??= Object.prototype.toString.call(v);
    return `${Array.isArray(v) ? 'array' : 'object'} ${text.length > 60 ? `${text.slice(0, 60)}…` : text}`;
  }
  return `${typeof v} ${String(v)}`;
}
