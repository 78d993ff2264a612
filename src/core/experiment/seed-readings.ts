// Lesson values read off each seed's run of a record and then summarised over seeds: the headline's
// markers of a state (measure/state-markers.ts, the plot's own call, the base as step 0), the first
// step a metric reads a value, a metric's last value as a share of the base's, its least or most
// value or its step-to-step dips over a window; and counts of seeds where a yes/no reading holds (the
// last marker goes to one behavior, is pink; a state's top behavior is not the rewarded one at every
// step of a window: measure/behavior-info.ts, the rule behind support/best_behavior_match). The rule
// kinds "perSeed" and "seedsWhere" of lesson-values.ts.
import { scalarAt } from '../metrics';
import { topIsRewarded } from '../measure/behavior-info';
import { percentOf, type DivergenceMarker } from '../measure/divergence';
import { DIST, stateMarkers } from '../measure/state-markers';
import { taskOf } from '../tasks/registry';
import type { Task } from '../tasks/types';
import type { BundleRun, ExperimentBundle } from './bundle';
import { variantConfig, type ExperimentSpec } from './spec';
import { seedBand } from './stats';

/** Per seed, from one metric over the window: its least or most value, the steps where it is below the step before, the first step it equals `equals`. */
const METRIC_READS = ['least', 'most', 'dips', 'firstStepAt', 'lastPercentOfBase'] as const;
/** Per seed, from the state's markers: how many, the last one's step, token entropy there in % of step 0 (as the marker text rounds). */
const MARKER_READS = ['markerCount', 'lastMarkerStep', 'lastMarkerPercent'] as const;
/** Per seed, yes or no: the last marker goes to one behavior; it is pink (a divergence); the state's top behavior is not rewarded at any step of the window. */
const FLAG_READS = ['lastMarkerToOne', 'lastMarkerPink', 'topMissed'] as const;
/** Over the seeds that have the reading: median, least, most, or the one value every seed gives. */
const OVER_SEEDS = ['median', 'min', 'max', 'same'] as const;

type MetricRead = (typeof METRIC_READS)[number];
type MarkerRead = (typeof MARKER_READS)[number];
type FlagRead = (typeof FLAG_READS)[number];

export type SeedReadingRule =
  | { of: 'perSeed'; read: MetricRead; metric: string; equals?: number; variant: number; stat: (typeof OVER_SEEDS)[number] }
  | { of: 'perSeed'; read: MarkerRead; state: string; variant: number; stat: (typeof OVER_SEEDS)[number] }
  | { of: 'seedsWhere'; read: FlagRead; state: string; variant: number };

/** Checks the fields of a perSeed or seedsWhere rule (the shared ones, window and rounding, are lesson-values'). */
export function checkSeedReadingRule(x: Record<string, unknown>, bad: (msg: string) => never): void {
  const reads: readonly string[] = x.of === 'perSeed' ? [...METRIC_READS, ...MARKER_READS] : FLAG_READS;
  if (!reads.includes(x.read as string)) bad(`"read" must be one of ${reads.join(', ')}`);
  if (!Number.isInteger(x.variant) || (x.variant as number) < 0) bad('"variant" must be a whole number');
  const metricRead = (METRIC_READS as readonly unknown[]).includes(x.read);
  const name = metricRead ? 'metric' : 'state';
  if (typeof x[name] !== 'string' || x[name] === '') bad(`"${name}" must be a ${name} name for read ${String(x.read)}`);
  if ((metricRead ? 'state' : 'metric') in x) bad(`read ${String(x.read)} takes a ${name}, not a ${metricRead ? 'state' : 'metric'}`);
  if ((x.read === 'firstStepAt') !== (typeof x.equals === 'number' && Number.isFinite(x.equals))) bad('"equals" (a number) goes with read firstStepAt, and only with it');
  const windowed = ['least', 'most', 'dips', 'firstStepAt', 'topMissed'].includes(x.read as string);
  if (!windowed && (x.from !== undefined || x.to !== undefined)) bad(`read ${String(x.read)} reads the whole run: no "from" or "to"`);
  if (x.of === 'perSeed' && !(OVER_SEEDS as readonly unknown[]).includes(x.stat)) bad(`"stat" must be one of ${OVER_SEEDS.join(', ')}`);
}

const stateTask = (spec: ExperimentSpec, variant: number, state: string): { task: Task; s: number } => {
  const task = taskOf(variantConfig(spec, variant, spec.seeds[0]));
  const s = task.states.findIndex((x) => x.name === state);
  if (s < 0) throw new RangeError(`${spec.name}: the task has no state "${state}" (${task.states.map((x) => x.name).join(', ')})`);
  return { task, s };
};

/** Every metric the rule reads: the metric, or what the state's markers (behavior shares, their errors, token entropy) or its top behavior need. */
export function metricsOfSeedReading(rule: SeedReadingRule, spec: ExperimentSpec): string[] {
  if ('metric' in rule) return [rule.metric];
  const { task } = stateTask(spec, rule.variant, rule.state);
  const shares = task.behaviors.map((b) => `${DIST}${rule.state}/${b.name}`);
  if (rule.read === 'topMissed') return [...shares, `${DIST}${rule.state}/invalid`];
  return [...shares, ...task.behaviors.map((b) => `support/behavior_dist_se/${rule.state}/${b.name}`), 'support/token_entropy'];
}

/** The value of `metric` at step 0 (the base), which a share of step 0 needs. */
function baseValue(bundle: ExperimentBundle, run: BundleRun, metric: string): number {
  const v = run.base && scalarAt(run.base, metric);
  if (v === undefined) throw new RangeError(`${bundle.spec.name}: variant ${run.variant}, seed ${run.seed} has no base value (step 0) of ${metric}: the record predates cells keeping the base; record it again`);
  return v;
}

function markersOf(bundle: ExperimentBundle, run: BundleRun, state: string): DivergenceMarker[] {
  baseValue(bundle, run, 'support/token_entropy');
  return stateMarkers(run.frames, { scalars: run.base! }, state, { eps: run.config.feasibilityEps, samples: run.config.behaviorSamples });
}

/** One seed's reading; undefined when the seed has none (no marker, never equal). */
function readSeed(bundle: ExperimentBundle, run: BundleRun, rule: SeedReadingRule, [from, to]: [number, number]): number | boolean | undefined {
  const frames = run.frames.slice(from - 1, to);
  const values = (metric: string) => frames.map((f) => scalarAt(f.scalars, metric));
  switch (rule.read) {
    case 'least':
    case 'most': {
      const xs = values(rule.metric).filter((x): x is number => x !== undefined);
      return xs.length ? (rule.read === 'least' ? Math.min(...xs) : Math.max(...xs)) : undefined;
    }
    case 'dips':
      return values(rule.metric).filter((x, i, xs) => i > 0 && x !== undefined && xs[i - 1] !== undefined && x < xs[i - 1]!).length;
    case 'firstStepAt':
      return frames.find((f) => scalarAt(f.scalars, rule.metric) === rule.equals)?.step;
    case 'lastPercentOfBase': {
      const last = scalarAt(run.frames[run.frames.length - 1].scalars, rule.metric);
      return last === undefined ? undefined : percentOf(last / baseValue(bundle, run, rule.metric));
    }
    case 'topMissed': {
      const { task, s } = stateTask(bundle.spec, rule.variant, rule.state);
      const names = [...task.behaviors.map((b) => b.name), 'invalid'];
      const rows = frames.map((f) => names.map((b) => scalarAt(f.scalars, `${DIST}${rule.state}/${b}`))).filter((row): row is number[] => row.every((p) => p !== undefined));
      if (!rows.length) throw new RangeError(`${bundle.spec.name}: variant ${run.variant}, seed ${run.seed} has no behavior shares of ${rule.state} in steps ${from}–${to}`);
      return rows.every((row) => !topIsRewarded(row, task.good[s]));
    }
  }
  const markers = markersOf(bundle, run, rule.state);
  const last = markers[markers.length - 1];
  if (rule.read === 'markerCount') return markers.length;
  if (!last) return undefined;
  if (rule.read === 'lastMarkerStep') return last.step;
  if (rule.read === 'lastMarkerPercent') return percentOf(last.tokenShare);
  return rule.read === 'lastMarkerToOne' ? last.to === 1 : last.kind === 'divergence';
}

/** The rule's value over the seeds of its variant (unrounded); every seed's run must take all of the spec's steps. */
export function deriveSeedReading(bundle: ExperimentBundle, rule: SeedReadingRule, window: [number, number]): number {
  const { spec } = bundle;
  const readings = spec.seeds.map((seed) => {
    const run = bundle.runs.find((r) => r.variant === rule.variant && r.seed === seed);
    if (!run) throw new RangeError(`${spec.name}: variant ${rule.variant}, seed ${seed} is not recorded`);
    if (run.frames.length !== spec.steps) throw new RangeError(`${spec.name}: variant ${rule.variant}, seed ${seed} ends at step ${run.frames.length} of ${spec.steps}${run.stoppedBy ? ` (${run.stoppedBy})` : ''}`);
    return readSeed(bundle, run, rule, window);
  });
  if (rule.of === 'seedsWhere') return readings.filter((x) => x === true).length;
  const xs = readings.filter((x): x is number => typeof x === 'number');
  if (!xs.length) throw new RangeError(`${spec.name}: no seed of variant ${rule.variant} has a ${rule.read}`);
  if (rule.stat === 'same') {
    if (new Set(xs).size > 1) throw new RangeError(`${spec.name}: the seeds' ${rule.read} differ (${[...new Set(xs)].sort((a, b) => a - b).join(', ')}): no one value stands for them all`);
    return xs[0];
  }
  return rule.stat === 'median' ? seedBand(xs).median : rule.stat === 'min' ? Math.min(...xs) : Math.max(...xs);
}
