/**
 * The new-experiment form as text (pure): variants one per line, `name: key=value, key=value`
 * (the name is optional), seeds as `1-8` or `1,2,5`. A value or name that holds a comma, a line
 * break or a `:` is written as a JSON string literal (`gate="a => drop\ntrue => mask1 rl"`), so any
 * spec (the shipped ones included) goes into the form and comes back out unchanged. Values parse
 * with the config table's parseField; the assembled spec is validated by the core's
 * parseExperimentSpec, and every problem comes back as one line naming its field.
 */
import { errorText } from '../../core/unknown';
import { formatField, parseField, type Config, type ConfigKey } from '../../core/config';
import { parseExperimentSpec, type ExperimentSpec } from '../../core/experiment/spec';

export interface ExperimentForm {
  name: string;
  /** `key=value, key=value` (a lesson's settings, or empty for the defaults). */
  base: string;
  variants: string;
  seeds: string;
  steps: number;
  /** Carried over from a loaded spec (the metrics the experiment is about, its description). */
  metrics?: string[];
  description?: string;
}

export function parseSeeds(text: string): number[] | string {
  const out: number[] = [];
  for (const part of text.split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^(\d+)\s*-\s*(\d+)$/.exec(part);
    if (m) {
      const [lo, hi] = [Number(m[1]), Number(m[2])];
      if (hi < lo || hi - lo > 999) return `seeds: bad range ${part}`;
      for (let s = lo; s <= hi; s++) out.push(s);
    } else if (/^\d+$/.test(part)) out.push(Number(part));
    else return `seeds: "${part}" is not a seed or a range like 1-8`;
  }
  return out.length ? out : 'seeds: give at least one seed (e.g. 1-8)';
}

/**
 * A value or a name as the form writes it: as is when it reads back unchanged, else as a JSON
 * string literal (a multi-line gate, a task spec's JSON, a name with `:`, `=` or `,` in it).
 */
function quoted(text: string, special: RegExp): string {
  return text === '' || text !== text.trim() || text.startsWith('"') || special.test(text) ? JSON.stringify(text) : text;
}

/** A JSON string literal starting at `text[from]` (a `"`): its value and the index after it. */
function readQuoted(text: string, from: number): { value: string; end: number } | string {
  for (let i = from + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') {
      try {
        return { value: JSON.parse(text.slice(from, i + 1)) as string, end: i + 1 };
      } catch (e) {
        return `bad quoted text ${text.slice(from, Math.min(i + 1, from + 40))}: ${errorText(e)}`;
      }
    }
  }
  return `quoted text ${text.slice(from, from + 40)}… has no closing "`;
}

/**
 * `key=value, key=value` → a patch through the config table; problems prefixed with `where`. A value
 * may be a JSON string literal (`gate="a => drop\ntrue => mask1 rl"`): commas and line breaks in it
 * stay in the value. `separators` are the characters between entries (the base box also takes line
 * breaks).
 */
export function parsePatch(body: string, where: string, errors: string[], separators = ','): Partial<Config> {
  const patch: Record<string, unknown> = {};
  let i = 0;
  const isSep = (c: string | undefined) => c !== undefined && separators.includes(c);
  while (i < body.length) {
    while (i < body.length && (isSep(body[i]) || /\s/.test(body[i]))) i++;
    if (i >= body.length) break;
    let j = i;
    while (j < body.length && body[j] !== '=' && !isSep(body[j])) j++;
    if (body[j] !== '=') {
      errors.push(`${where}: "${body.slice(i, j).trim()}" is not key=value`);
      i = j;
      continue;
    }
    const key = body.slice(i, j).trim();
    j++;
    while (j < body.length && body[j] !== '\n' && /\s/.test(body[j])) j++;
    let text: string;
    if (body[j] === '"') {
      const q = readQuoted(body, j);
      if (typeof q === 'string') {
        errors.push(`${where}: ${key}: ${q}`);
        return patch as Partial<Config>;
      }
      text = q.value;
      j = q.end;
      while (j < body.length && !isSep(body[j]) && /\s/.test(body[j])) j++;
      if (j < body.length && !isSep(body[j])) {
        const from = j;
        while (j < body.length && !isSep(body[j])) j++;
        errors.push(`${where}: ${key}: unexpected ${JSON.stringify(body.slice(from, j).trim())} after the quoted value (separate settings with ${separators.includes('\n') ? 'a comma or a new line' : 'a comma'})`);
        i = j;
        continue;
      }
    } else {
      const from = j;
      while (j < body.length && !isSep(body[j])) j++;
      text = body.slice(from, j).trim();
    }
    i = j;
    try {
      patch[key] = parseField(key, text);
    } catch (e) {
      errors.push(`${where}: ${errorText(e)}`);
    }
  }
  return patch as Partial<Config>;
}

/** A patch as `key=value, key=value` (values quoted where needed: parsePatch reads it back as is). */
export const patchText = (p: Partial<Config>) => Object.entries(p).map(([k, v]) => `${k}=${quoted(formatField(k as ConfigKey, v as Config[ConfigKey]), /[,\n\r]/)}`).join(', ');

/** A variant's line: `name: key=value, …`; a name with `:`, `=` or `,` in it is quoted. */
function variantLine(v: { name: string; patch: Partial<Config> }): string {
  const body = patchText(v.patch);
  return v.name === body && body !== '' ? body : `${quoted(v.name, /[:=,\n\r]/)}: ${body}`;
}

export function parseVariants(text: string): { name: string; patch: Partial<Config> }[] | string[] {
  const errors: string[] = [];
  const variants = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((line, i) => {
      const where = `variant ${i + 1}`;
      let name: string | null = null;
      let body = line;
      if (line.startsWith('"')) {
        const q = readQuoted(line, 0);
        const colon = typeof q === 'string' ? -1 : line.slice(q.end).search(/\S/);
        if (typeof q === 'string') errors.push(`${where}: name: ${q}`);
        else if (colon < 0 || line[q.end + colon] !== ':') errors.push(`${where}: a quoted name is followed by ":"`);
        else [name, body] = [q.value, line.slice(q.end + colon + 1)];
        if (name === null) return { name: where, patch: {} };
      } else {
        const colon = line.indexOf(':');
        if (colon >= 0 && !line.slice(0, colon).includes('=')) [name, body] = [line.slice(0, colon).trim(), line.slice(colon + 1)];
      }
      const patch = parsePatch(body, where, errors);
      return { name: name ?? (body.trim() || where), patch };
    });
  if (errors.length) return errors;
  if (!variants.length) return ['variants: give at least one line (e.g. clipHigh=0.2)'];
  return variants;
}

export function specFromForm(f: ExperimentForm): { spec: ExperimentSpec } | { errors: string[] } {
  const seeds = parseSeeds(f.seeds);
  const variants = parseVariants(f.variants);
  const errors: string[] = [];
  // a lesson's seed and steps are the spec's own fields, not part of its base
  const { seed: _seed, steps: _steps, ...base } = parsePatch(f.base, 'base', errors, ',\n');
  if (typeof seeds === 'string') errors.push(seeds);
  if (variants.every((v) => typeof v === 'string')) errors.push(...(variants as string[]));
  if (errors.length) return { errors };
  try {
    const extra = { ...(f.metrics ? { metrics: f.metrics } : {}), ...(f.description ? { description: f.description } : {}) };
    return { spec: parseExperimentSpec({ version: 1, name: f.name.trim(), base, variants, seeds, steps: f.steps, ...extra }) };
  } catch (e) {
    const list = (e as { errors?: { field: string; message: string }[] }).errors;
    return { errors: list ? list.map((x) => `${x.field}: ${x.message}`) : [errorText(e)] };
  }
}

/** A spec back into the form (e.g. a shipped lesson experiment); specFromForm gives the spec back as it was. */
export function formFromSpec(spec: ExperimentSpec): ExperimentForm {
  const seeds = spec.seeds.every((s, i) => i === 0 || s === spec.seeds[i - 1] + 1) && spec.seeds.length > 2 ? `${spec.seeds[0]}-${spec.seeds.at(-1)}` : spec.seeds.join(', ');
  return { ...(spec.metrics ? { metrics: spec.metrics } : {}), ...(spec.description ? { description: spec.description } : {}), name: spec.name, base: patchText(spec.base), variants: spec.variants.map(variantLine).join('\n'), seeds, steps: spec.steps };
}
