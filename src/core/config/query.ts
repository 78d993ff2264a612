// The query codec over the schema table: the page URL (src/ui/state/url.ts adds the lab's own keys
// around it) and shared links. Only settings that differ from a base (the defaults, or a lesson's
// settings) are written; decoding is lenient: a bad field is reported once and keeps its base value.
import { CONFIG_KEYS, CONFIG_VERSION, defaultConfig, settingOfUrlKey, urlKey, type Config, type ConfigKey } from './schema';
import { formatField, parseField } from './text';
import { describeValue, LONE_SURROGATE } from './field';
import { ConfigError, repairConfig, type FieldError } from './validate';

/** Longest query read (characters); a shared link beyond it is cut at the last whole parameter. */
export const MAX_QUERY_LENGTH = 4000;
/** Unknown settings reported one by one; the rest are counted in one line. */
export const MAX_UNKNOWN_REPORTS = 10;

/**
 * A value in a query: spaces as "+" and commas as they are (a gate's rules and lists such as
 * views=a,b stay short and legible); URLSearchParams reads it back. Never throws: an unpaired surrogate (which validation keeps out of a config) is written
 * as U+FFFD, as a browser would.
 */
export function encodeQueryValue(text: string): string {
  const wellFormed = text.replace(LONE_SURROGATE, '\uFFFD');
  return encodeURIComponent(wellFormed).replace(/%20/g, '+').replace(/%2C/g, ',');
}

/** "k=v&k=v": keys and values encoded by encodeQueryValue, in the given order. */
export function encodeQuery(entries: readonly (readonly [string, string])[]): string {
  return entries.map(([k, v]) => `${encodeQueryValue(k)}=${encodeQueryValue(v)}`).join('&');
}

/** The settings of `c` that differ from `base`, as query entries in schema order. */
export function configEntries(c: Config, base: Config = defaultConfig()): [string, string][] {
  return CONFIG_KEYS.filter((k) => c[k] !== base[k]).map((k) => [urlKey(k), formatField(k, c[k])]);
}

/** Only non-default fields, in schema order, prefixed with the version: "v=1&task=assistant&...". */
export function configToQuery(c: Config, base: Config = defaultConfig()): string {
  return encodeQuery([['v', String(CONFIG_VERSION)], ...configEntries(c, base)]);
}

/** Why a link's task spec was not read: it lay past the cap (a link made by the lab never does). */
function specCutText(length: number): string {
  return `the task spec in the link (${urlKey('taskSpec')}=…, ${length} characters) lies past the first ${MAX_QUERY_LENGTH} characters and was not read: `
    + 'paste the spec into the task editor and Train it (the link the lab then makes keeps a long spec in this browser and names it), or save it as a file for the CLI\'s --task-file';
}

/**
 * The parameters of a query, each key once with its LAST value (a later value overrides, as in a
 * patch), plus one report per key given different values and one for a query over the size cap.
 */
export function queryParams(query: string): { params: Map<string, string>; errors: FieldError[] } {
  let q = query.startsWith('?') ? query.slice(1) : query;
  const errors: FieldError[] = [];
  if (q.length > MAX_QUERY_LENGTH) {
    const cut = Math.max(0, q.lastIndexOf('&', MAX_QUERY_LENGTH));
    errors.push({ field: '(url)', message: `the link is ${q.length} characters long; only the first ${cut} are read` });
    const spec = new URLSearchParams(q.slice(cut)).get(urlKey('taskSpec'));
    if (spec !== null) errors.push({ field: 'taskSpec', message: specCutText(spec.length) });
    q = q.slice(0, cut);
  }
  const all = new Map<string, string[]>();
  for (const [k, v] of new URLSearchParams(q)) all.set(k, [...(all.get(k) ?? []), v]);
  const params = new Map<string, string>();
  for (const [k, vs] of all) {
    params.set(k, vs[vs.length - 1]);
    if (new Set(vs).size > 1) errors.push({ field: k, message: `given ${vs.length} times (${vs.slice(0, 3).map((v) => describeValue(v)).join(', ')}${vs.length > 3 ? ', …' : ''}); the last one is used` });
  }
  return { params, errors };
}

/** Reports of unknown settings: the first MAX_UNKNOWN_REPORTS, then one line counting the rest. */
export function capUnknown(errors: FieldError[]): FieldError[] {
  const unknown = errors.filter((e) => e.message === 'unknown setting');
  if (unknown.length <= MAX_UNKNOWN_REPORTS) return errors;
  const dropped = new Set(unknown.slice(MAX_UNKNOWN_REPORTS));
  const rest = errors.filter((e) => !dropped.has(e));
  rest.push({ field: '(more)', message: `and ${dropped.size} more unknown settings, ignored` });
  return rest;
}

/** Keep one report per field (the first), so that the banner never lists a key twice. */
export function onePerField(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errors.filter((e) => (seen.has(e.field) ? false : (seen.add(e.field), true)));
}

/**
 * The config that decoded parameters describe over `base`: every bad field is reported (with the
 * query's text) and keeps its base value; cross-field clashes reset the fields the query changed.
 * `v` is the schema version; every other key must name a setting. Always a valid config.
 */
export function configFromParams(params: ReadonlyMap<string, string>, base: Config = defaultConfig()): { config: Config; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const config: Record<string, unknown> = { ...base };
  for (const [k, text] of params) {
    if (k === 'v') {
      if (text !== String(CONFIG_VERSION)) errors.push({ field: 'v', message: `unsupported config version ${describeValue(text)}` });
      continue;
    }
    const key: ConfigKey | null = settingOfUrlKey(k);
    if (key === null) {
      errors.push({ field: k, message: 'unknown setting' });
      continue;
    }
    try {
      config[key] = parseField(key, text);
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      errors.push({ field: key, message: e.message.replace(`config.${key}: `, '') });
    }
  }
  const repaired = repairConfig(config as Config, base);
  return { config: repaired.config, errors: [...errors, ...repaired.errors] };
}

/**
 * Decode a query string leniently over `base` (default: the defaults); see configFromParams. A bad
 * value is the report for its key; a "given twice" note only when the value was fine.
 */
export function configFromQuery(query: string, base: Config = defaultConfig()): { config: Config; errors: FieldError[] } {
  const { params, errors: notes } = queryParams(query);
  const { config, errors } = configFromParams(params, base);
  return { config, errors: capUnknown(onePerField([...errors, ...notes])) };
}

/** Strict decode: throws on the first bad field. */
export function configFromQueryStrict(query: string): Config {
  const { config, errors } = configFromQuery(query);
  if (errors.length) throw new ConfigError(errors[0].field, errors[0].message);
  return config;
}
