// The multi-seed numbers of a lesson's "How we know", derived from an experiment record
// (record.ts) by the rule its measurement file (public/presets/measured/<id>.json, "derived") names
// for each: a paired comparison (through pairedFromBundle, the experiments page's paired panel's
// own call), a median or mean over seeds of per-seed window means, a count of seeds, the ratio at
// the first step two paired runs differ, the seeds whose metrics keep one value at every step (a
// claim in words: "dropped nothing", "support is 1 in every state"), the least or most a seed
// totals over a window, the median onset step of a change (measure/onset.ts, the one onset rule) and
// the seeds where one change begins before another; a reading of each seed's run (its markers, the
// first step a metric reads a value, …: seed-readings.ts) summarised over seeds or counted. One function, deriveLessonValue, so a value and the rule
// it was computed by cannot part.
import { isObject } from '../unknown';
import { pairedFromBundle, windowGap } from './compare';
import { recordBundle, type ExperimentRecord } from './record';
import { seedBand, windowMean } from './stats';
import type { BundleRun, ExperimentBundle } from './bundle';
import { scalarAt } from '../metrics';
import { onsetStep } from '../measure/onset';
import { checkSeedReadingRule, deriveSeedReading, metricsOfSeedReading, type SeedReadingRule } from './seed-readings';
import type { ExperimentSpec } from './spec';

interface Window {
  /** Steps from..to of the window (default: every step of the spec). */
  from?: number;
  to?: number;
}

interface Rounded {
  /** Decimal places the text gives (default: the value as computed). */
  digits?: number;
  /** Written with exactly `digits` places as text (e.g. "0.000"), where the text shows the zeros. */
  fixed?: boolean;
  /** Multiplied before rounding (100: a share in %). */
  scale?: number;
}

/** The record a rule reads: its experiment's spec name (default: the lesson's own). */
interface FromRecord {
  record?: string;
}

export type ValueRule = FromRecord &
  (
    | { of: 'seeds' | 'steps' }
    | (Window & Rounded & {
        /** B against A, pair by pair (same seed): B − A, and the seeds where B is better. */
        of: 'paired';
        /** One metric, or several that must give the same count ("lower … in 16 of 16 seeds each"). */
        metric: string | string[];
        a: number;
        b: number;
        stat: 'meanDiff' | 'ciLow' | 'ciHigh' | 'favourB';
        lowerIsBetter?: boolean;
      })
    | (Window & Rounded & {
        /** Over seeds, of each seed's window mean of the metric (divided by `per`'s, when given). */
        of: 'median' | 'mean';
        metric: string;
        per?: string;
        variant: number;
      })
    | (Rounded & {
        /** Per seed, B / A of the metric at the first step where the paired runs differ; over seeds. */
        of: 'firstDifferenceRatio';
        metric: string;
        a: number;
        b: number;
        stat: 'min' | 'max';
      })
    | (Window & {
        /** Seeds whose metric(s) equal `equals` at every step of the window where they are recorded. */
        of: 'seedsEqual';
        metric: string | string[];
        variant: number;
        equals: number;
      })
    | (Window & {
        /** Per seed, the metric summed over the window; the least or most over seeds. */
        of: 'seedTotal';
        metric: string;
        variant: number;
        stat: 'min' | 'max';
      })
    | (Rounded & {
        /** Over seeds, the median step where the metric's change begins (several metrics: their mean at each step). */
        of: 'onset';
        metric: string | string[];
        direction: 'fall' | 'rise';
        variant: number;
      })
    | {
        /** Seeds where the metric's change begins before `than`'s (each its own direction). */
        of: 'onsetBefore';
        metric: string | string[];
        direction: 'fall' | 'rise';
        than: string | string[];
        thanDirection: 'fall' | 'rise';
        variant: number;
      }
    | (Window & {
        /** Seeds whose window mean grows at each variant in order. */
        of: 'increasing';
        metric: string;
        variants: number[];
      })
    /** A reading of each seed's run, over seeds (perSeed) or counted where it holds (seedsWhere): seed-readings.ts. */
    | (Window & Rounded & SeedReadingRule)
  );

const KINDS = ['seeds', 'steps', 'paired', 'median', 'mean', 'firstDifferenceRatio', 'seedsEqual', 'seedTotal', 'increasing', 'onset', 'onsetBefore', 'perSeed', 'seedsWhere'] as const;
const PAIRED_STATS = ['meanDiff', 'ciLow', 'ciHigh', 'favourB'];
/** Every field a rule may have: a misspelt one ("lowerIsbetter") is an error, not a silent default. */
const RULE_KEYS = new Set(['record', 'of', 'metric', 'per', 'variant', 'variants', 'a', 'b', 'stat', 'lowerIsBetter', 'equals', 'from', 'to', 'digits', 'fixed', 'scale', 'direction', 'than', 'thanDirection', 'read', 'state']);

/** A rule from a measurement file, checked; throws naming `where` and the bad field. */
export function parseValueRule(x: unknown, where: string): ValueRule {
  const bad = (msg: string): never => {
    throw new Error(`${where}: ${msg}`);
  };
  if (!isObject(x)) return bad('expected a rule object { of, … }');
  for (const k of Object.keys(x)) if (!RULE_KEYS.has(k)) bad(`unknown field "${k}"`);
  if (!(KINDS as readonly unknown[]).includes(x.of)) bad(`"of" must be one of ${KINDS.join(', ')}, got ${JSON.stringify(x.of)}`);
  const str = (k: string, optional = false) => (x[k] === undefined && optional) || (typeof x[k] === 'string' && x[k] !== '') || bad(`"${k}" must be a metric name`);
  const int = (k: string, optional = false) => (x[k] === undefined && optional) || (Number.isInteger(x[k]) && (x[k] as number) >= 0) || bad(`"${k}" must be a whole number`);
  const oneOf = (k: string, allowed: string[]) => allowed.includes(x[k] as string) || bad(`"${k}" must be one of ${allowed.join(', ')}`);
  if (x.record !== undefined && (typeof x.record !== 'string' || !/^[\w-]+$/.test(x.record))) bad('"record" must be an experiment spec name');
  for (const k of ['from', 'to', 'digits']) int(k, true);
  if (x.scale !== undefined && !(typeof x.scale === 'number' && Number.isFinite(x.scale) && x.scale !== 0)) bad('"scale" must be a nonzero number');
  if (x.fixed !== undefined && (x.fixed !== true || x.digits === undefined)) bad('"fixed" must be true and come with "digits"');
  if (x.lowerIsBetter !== undefined && typeof x.lowerIsBetter !== 'boolean') bad('"lowerIsBetter" must be true or false');
  const metricOrList = (k = 'metric') => (Array.isArray(x[k]) ? (x[k] as unknown[]).length > 0 && (x[k] as unknown[]).every((m) => typeof m === 'string' && m !== '') : typeof x[k] === 'string' && x[k] !== '') || bad(`"${k}" must be a metric name or a list of them`);
  switch (x.of) {
    case 'paired':
      metricOrList();
      if (Array.isArray(x.metric) && x.metric.length > 1 && x.stat !== 'favourB') bad('several metrics give one value only as a count of seeds (stat favourB)');
      int('a');
      int('b');
      oneOf('stat', PAIRED_STATS);
      break;
    case 'median':
    case 'mean':
      str('metric');
      str('per', true);
      int('variant');
      break;
    case 'firstDifferenceRatio':
      str('metric');
      int('a');
      int('b');
      oneOf('stat', ['min', 'max']);
      break;
    case 'seedsEqual':
      metricOrList();
      int('variant');
      if (typeof x.equals !== 'number' || !Number.isFinite(x.equals)) bad('"equals" must be a number');
      break;
    case 'seedTotal':
      str('metric');
      int('variant');
      oneOf('stat', ['min', 'max']);
      break;
    case 'onset':
    case 'onsetBefore':
      metricOrList();
      oneOf('direction', ['fall', 'rise']);
      int('variant');
      if (x.of === 'onsetBefore') {
        metricOrList('than');
        oneOf('thanDirection', ['fall', 'rise']);
      }
      break;
    case 'perSeed':
    case 'seedsWhere':
      checkSeedReadingRule(x, bad);
      break;
    case 'increasing':
      str('metric');
      if (!Array.isArray(x.variants) || x.variants.length < 2 || !x.variants.every((v) => Number.isInteger(v) && v >= 0)) bad('"variants" must list at least two variant indices');
      break;
  }
  return x as unknown as ValueRule;
}

/** Every metric a rule reads: what a record of its experiment (`spec`) must keep. */
export function metricsOfRule(rule: ValueRule, spec: ExperimentSpec): string[] {
  switch (rule.of) {
    case 'perSeed':
    case 'seedsWhere':
      return metricsOfSeedReading(rule, spec);
    case 'seeds':
    case 'steps':
      return [];
    case 'paired':
    case 'seedsEqual':
      return Array.isArray(rule.metric) ? rule.metric : [rule.metric];
    case 'median':
    case 'mean':
      return rule.per ? [rule.metric, rule.per] : [rule.metric];
    case 'onset':
      return [rule.metric].flat();
    case 'onsetBefore':
      return [rule.metric, rule.than].flat();
    default:
      return [rule.metric];
  }
}

function rounded(v: number, r: Rounded): number | string {
  const x = v * (r.scale ?? 1);
  if (r.digits === undefined) return x;
  const f = 10 ** r.digits;
  const n = Math.round(x * f) / f;
  return r.fixed ? n.toFixed(r.digits) : n === 0 ? 0 : n; // no −0
}

function variantOf(bundle: ExperimentBundle, v: number): void {
  if (!bundle.spec.variants[v]) throw new RangeError(`variant ${v} is outside 0..${bundle.spec.variants.length - 1} of ${bundle.spec.name}`);
}

/** Each seed's run of variant v (every seed must be recorded and cover the window). */
function seedRuns(bundle: ExperimentBundle, v: number, metric: string, from: number, to: number): BundleRun[] {
  variantOf(bundle, v);
  return bundle.spec.seeds.map((seed) => {
    const run = bundle.runs.find((r) => r.variant === v && r.seed === seed);
    if (!run) throw new RangeError(`${bundle.spec.name}: variant ${v}, seed ${seed} is not recorded`);
    const gap = windowGap(run, metric, from, to);
    if (gap) throw new RangeError(`${bundle.spec.name}: variant ${v}, seed ${seed}: ${gap.replace(/^its run /, 'the run ')}`);
    return run;
  });
}

function windowOf(bundle: ExperimentBundle, w: Window): [number, number] {
  const from = w.from ?? 1;
  const to = w.to ?? bundle.spec.steps;
  if (from < 1 || to > bundle.spec.steps || from > to) throw new RangeError(`step window ${from}–${to} is not inside ${bundle.spec.name}'s steps 1–${bundle.spec.steps}`);
  return [from, to];
}

/** Per seed, at the first step where the two runs' metric differs, B's value over A's. */
function firstDifferenceRatios(bundle: ExperimentBundle, metric: string, a: number, b: number): number[] {
  const [ra, rb] = [a, b].map((v) => seedRuns(bundle, v, metric, 1, bundle.spec.steps));
  return ra.map((run, i) => {
    const at = run.frames.findIndex((f, j) => scalarAt(f.scalars, metric) !== scalarAt(rb[i].frames[j].scalars, metric));
    if (at < 0) throw new RangeError(`${bundle.spec.name}: seed ${run.seed}: the runs never differ in ${metric}`);
    return scalarAt(rb[i].frames[at].scalars, metric)! / scalarAt(run.frames[at].scalars, metric)!;
  });
}

/** Per seed of variant v, the step where the change of the metrics' per-step mean begins; every seed must have one. */
function onsets(bundle: ExperimentBundle, v: number, metric: string | string[], direction: 'fall' | 'rise'): number[] {
  const metrics = [metric].flat();
  // each metric must cover every step of every seed (seedRuns checks); the runs are the same for all
  const [runs] = metrics.map((m) => seedRuns(bundle, v, m, 1, bundle.spec.steps));
  return runs.map((run) => {
    const at = (m: string, f: (typeof run.frames)[number]) => {
      const x = scalarAt(f.scalars, m);
      if (x === undefined) throw new RangeError(`${bundle.spec.name}: variant ${v}, seed ${run.seed} has no ${m} at step ${f.step}: an onset needs every step`);
      return x;
    };
    const points = run.frames.map((f) => ({ step: f.step, value: metrics.reduce((s, m) => s + at(m, f), 0) / metrics.length }));
    const onset = onsetStep(points, direction);
    if (onset === null) throw new RangeError(`${bundle.spec.name}: variant ${v}, seed ${run.seed}: ${metrics.join(' + ')} has no onset (no ${direction} by the onset rule)`);
    return onset;
  });
}

/** The value `rule` derives from `record`, rounded as the text writes it. */
export function deriveLessonValue(record: ExperimentRecord, rule: ValueRule): number | string {
  const bundle = recordBundle(record);
  const { spec } = bundle;
  switch (rule.of) {
    case 'seeds':
      return spec.seeds.length;
    case 'steps':
      return spec.steps;
    case 'paired': {
      const [from, to] = windowOf(bundle, rule);
      const metrics = Array.isArray(rule.metric) ? rule.metric : [rule.metric];
      const all = metrics.map((m) => {
        const p = pairedFromBundle(bundle, m, rule.a, rule.b, { from, to, higherIsBetter: !rule.lowerIsBetter });
        if (p.n !== p.total) throw new RangeError(`${spec.name}: ${m}: only ${p.n} of ${p.total} pairs cover steps ${from}–${to}`);
        return p;
      });
      if (rule.stat === 'favourB') {
        const counts = all.map((p) => p.favourB);
        if (new Set(counts).size > 1) throw new RangeError(`${spec.name}: the metrics ${metrics.join(', ')} favour B in different numbers of seeds (${counts.join(', ')}): one count cannot stand for them all`);
        return counts[0];
      }
      const p = all[0];
      if (rule.stat === 'meanDiff') return rounded(p.meanDiff, rule);
      if (!p.ci) throw new RangeError(`${spec.name}: ${p.n} pairs give no interval`);
      return rounded(p.ci[rule.stat === 'ciLow' ? 0 : 1], rule);
    }
    case 'median':
    case 'mean': {
      const [from, to] = windowOf(bundle, rule);
      const per = rule.per;
      const runs = seedRuns(bundle, rule.variant, rule.metric, from, to);
      if (per) seedRuns(bundle, rule.variant, per, from, to);
      const values = runs.map((r) => windowMean(r.frames, rule.metric, from, to) / (per ? windowMean(r.frames, per, from, to) : 1));
      return rounded(rule.of === 'median' ? seedBand(values).median : values.reduce((s, x) => s + x, 0) / values.length, rule);
    }
    case 'firstDifferenceRatio': {
      const ratios = firstDifferenceRatios(bundle, rule.metric, rule.a, rule.b);
      return rounded(rule.stat === 'min' ? Math.min(...ratios) : Math.max(...ratios), rule);
    }
    case 'seedsEqual': {
      const [from, to] = windowOf(bundle, rule);
      const runsOf = (Array.isArray(rule.metric) ? rule.metric : [rule.metric]).map((m) => [m, seedRuns(bundle, rule.variant, m, from, to)] as const);
      // a step the metric was not measured at (measureEvery) says nothing against the claim
      const holds = (i: number) => runsOf.every(([m, runs]) => runs[i].frames.slice(from - 1, to).every((f) => (scalarAt(f.scalars, m) ?? rule.equals) === rule.equals));
      return spec.seeds.filter((_, i) => holds(i)).length;
    }
    case 'seedTotal': {
      const [from, to] = windowOf(bundle, rule);
      const totals = seedRuns(bundle, rule.variant, rule.metric, from, to).map((r) =>
        r.frames.slice(from - 1, to).reduce((s, f) => {
          const x = scalarAt(f.scalars, rule.metric);
          if (x === undefined) throw new RangeError(`${spec.name}: variant ${rule.variant}, seed ${r.seed} has no ${rule.metric} at step ${f.step}: a total needs every step`);
          return s + x;
        }, 0),
      );
      return rule.stat === 'min' ? Math.min(...totals) : Math.max(...totals);
    }
    case 'onset':
      return rounded(seedBand(onsets(bundle, rule.variant, rule.metric, rule.direction)).median, rule);
    case 'onsetBefore': {
      const than = onsets(bundle, rule.variant, rule.than, rule.thanDirection);
      return onsets(bundle, rule.variant, rule.metric, rule.direction).filter((at, i) => at < than[i]).length;
    }
    case 'perSeed':
      return rounded(deriveSeedReading(bundle, rule, windowOf(bundle, rule)), rule);
    case 'seedsWhere':
      return deriveSeedReading(bundle, rule, windowOf(bundle, rule));
    case 'increasing': {
      const [from, to] = windowOf(bundle, rule);
      const means = rule.variants.map((v) => seedRuns(bundle, v, rule.metric, from, to).map((r) => windowMean(r.frames, rule.metric, from, to)));
      return spec.seeds.filter((_, i) => means.every((m, k) => k === 0 || m[i] > means[k - 1][i])).length;
    }
  }
}
