/**
 * The new-experiment form as text (pure): variants one per line, `name: key=value, key=value`
 * (the name is optional), seeds as `1-8` or `1,2,5`. Values parse with the config table's
 * parseField; the assembled spec is validated by the core's parseExperimentSpec, and every problem
 * comes back as one line naming its field.
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

/** `key=value, key=value` → a patch through the config table; problems prefixed with `where`. */
export function parsePatch(body: string, where: string, errors: string[]): Partial<Config> {
  const patch: Record<string, unknown> = {};
  for (const kv of body.split(',').map((s) => s.trim()).filter(Boolean)) {
    const eq = kv.indexOf('=');
    if (eq < 0) {
      errors.push(`${where}: "${kv}" is not key=value`);
      continue;
    }
    const key = kv.slice(0, eq).trim();
    try {
      patch[key] = parseField(key, kv.slice(eq + 1).trim());
    } catch (e) {
      errors.push(`${where}: ${errorText(e)}`);
    }
  }
  return patch as Partial<Config>;
}

/** A patch as `key=value, key=value`. */
export const patchText = (p: Partial<Config>) => Object.entries(p).map(([k, v]) => `${k}=${formatField(k as ConfigKey, v as Config[ConfigKey])}`).join(', ');

export function parseVariants(text: string): { name: string; patch: Partial<Config> }[] | string[] {
  const errors: string[] = [];
  const variants = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((line, i) => {
      const colon = line.indexOf(':');
      const named = colon >= 0 && !line.slice(0, colon).includes('=');
      const body = named ? line.slice(colon + 1) : line;
      const patch = parsePatch(body, `variant ${i + 1}`, errors);
      return { name: named ? line.slice(0, colon).trim() : body.trim() || `variant ${i + 1}`, patch };
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
  const { seed: _seed, steps: _steps, ...base } = parsePatch(f.base, 'base', errors);
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

/** A spec back into the form (e.g. a shipped lesson experiment). */
export function formFromSpec(spec: ExperimentSpec): ExperimentForm {
  const kv = patchText;
  const seeds = spec.seeds.every((s, i) => i === 0 || s === spec.seeds[i - 1] + 1) && spec.seeds.length > 2 ? `${spec.seeds[0]}-${spec.seeds.at(-1)}` : spec.seeds.join(', ');
  return { ...(spec.metrics ? { metrics: spec.metrics } : {}), ...(spec.description ? { description: spec.description } : {}), name: spec.name, base: patchText(spec.base), variants: spec.variants.map((v) => (v.name === kv(v.patch) ? v.name : `${v.name.replaceAll(':', ' ')}: ${kv(v.patch)}`)).join('\n'), seeds, steps: spec.steps };
}
