import { describe, expect, it } from 'vitest';
import type { MetricsFrame } from '../metrics';
import type { BundleRun } from './bundle';
import { pairedFromBundle } from './compare';
import { deriveLessonValue, metricsOfRule, parseValueRule, type ValueRule } from './lesson-values';
import { makeRecord, parseRecord, recordBundle, recordToJson, type ExperimentRecord } from './record';
import { parseExperimentSpec, variantConfig, type ExperimentSpec } from './spec';

const spec: ExperimentSpec = parseExperimentSpec({
  version: 1,
  name: 'toy',
  description: 'prose',
  base: { task: 'strategies' },
  variants: [{ name: 'A', patch: { clipHigh: 0.2 } }, { name: 'B', patch: { clipHigh: 0.28 } }, { name: 'C', patch: { clipHigh: 0.3 } }],
  seeds: [1, 2, 3, 4, 5],
  steps: 4,
});

/** Variant v, seed s: metric m at step t; "sparse" only at even steps (as a metric measured every 2 steps). */
const value = (v: number, s: number, t: number) => v * 0.5 + s * 0.1 + t * 0.01 + (t > 1 ? v * s * 0.001 : 0);
function frames(v: number, s: number, steps = spec.steps): MetricsFrame[] {
  return Array.from({ length: steps }, (_, i) => ({
    step: i + 1, version: 0, series: { counts: [v, s * (i + 1)] }, ratioEdges: [], perf: {}, changes: {}, trace: [],
    scalars: { m: value(v, s, i + 1), other: 1, ...((i + 1) % 2 === 0 ? { sparse: s * (v + 1) } : {}) },
  }) as unknown as MetricsFrame);
}
const runs: BundleRun[] = [0, 1, 2].flatMap((v) => spec.seeds.map((s) => ({ variant: v, seed: s, config: variantConfig(spec, v, s), timeline: [], frames: frames(v, s) })));
const produced = { command: 'test', codeVersion: 'x', date: '2026-12-07', base: 'none', engine: 'tabular' };
const record: ExperimentRecord = makeRecord(spec, runs, ['m', 'sparse', 'counts[0]', 'counts[1]'], produced);
const derive = (rule: unknown) => deriveLessonValue(record, parseValueRule(rule, 'test'));

describe('experiment records', () => {
  it('keep only the named metrics, null where a step lacks one, and the spec without its prose; JSON round trip is exact', () => {
    expect(record.runs).toHaveLength(15);
    expect(Object.keys(record.runs[0].series)).toEqual(['m', 'sparse', 'counts[0]', 'counts[1]']);
    expect(record.runs[0].series.sparse).toEqual([null, 1, null, 1]);
    // an element of a vector metric (gate/rule_counts[1]: the gate's second rule), by step
    expect(record.runs[1].series['counts[1]']).toEqual([2, 4, 6, 8]);
    expect(record.spec.description).toBeUndefined();
    expect(parseRecord(JSON.parse(recordToJson(record)))).toEqual(record);
  });

  it('refuse a partial experiment and a metric no run has', () => {
    expect(() => makeRecord(spec, runs.slice(1), ['m'], produced)).toThrow(/cells 0 are missing/);
    expect(() => makeRecord(spec, runs, ['nope'], produced)).toThrow(/has no nope at any step/);
    expect(() => makeRecord(spec, runs, ['counts[2]'], produced)).toThrow(/has no counts\[2\] at any step/);
  });

  it('name every bad field when parsed', () => {
    const bad = JSON.parse(recordToJson(record));
    bad.runs[1].seed = 99;
    bad.runs[2].series.m[0] = 'x';
    bad.runs[3].series.m.push(1);
    delete bad.produced.date;
    expect(() => parseRecord(bad)).toThrow(/produced\.date.*runs\[1\]\.seed:.*not a seed.*runs\[2\]\.series\.m\[0\].*runs\[3\]\.series\.sparse: 4 steps where the run's other metrics have 5/s);
  });
});

describe('deriveLessonValue', () => {
  it('paired values are what pairedFromBundle (the experiments page\'s paired panel) computes on the same runs', () => {
    const p = pairedFromBundle(recordBundle(record), 'm', 0, 1, { from: 2, to: 4 });
    const rule = { of: 'paired', metric: 'm', a: 0, b: 1, from: 2, to: 4 };
    expect(derive({ ...rule, stat: 'meanDiff' })).toBe(p.meanDiff);
    expect(derive({ ...rule, stat: 'ciLow', digits: 3 })).toBe(Math.round(p.ci![0] * 1000) / 1000);
    expect(derive({ ...rule, stat: 'ciHigh' })).toBe(p.ci![1]);
    expect(derive({ ...rule, stat: 'favourB' })).toBe(5);
    expect(derive({ ...rule, stat: 'favourB', lowerIsBetter: true })).toBe(0);
    expect(derive({ ...rule, metric: ['m', 'sparse'], stat: 'favourB' })).toBe(5);
  });

  it('medians and means over seeds of each seed\'s window mean; a ratio to another metric, scaled and rounded', () => {
    // variant 0, steps 1-2: seed s has mean 0.1 s + 0.015; the median seed is 3
    expect(derive({ of: 'median', metric: 'm', variant: 0, to: 2, digits: 4 })).toBe(0.315);
    expect(derive({ of: 'mean', metric: 'sparse', variant: 2 })).toBe(9); // 3 s averaged over seeds 1-5
    expect(derive({ of: 'median', metric: 'sparse', per: 'sparse', variant: 1, scale: 100 })).toBe(100);
    expect(derive({ of: 'median', metric: 'm', variant: 0, to: 1, digits: 3, fixed: true })).toBe('0.310');
    expect(derive({ of: 'seeds' })).toBe(5);
    expect(derive({ of: 'steps' })).toBe(4);
  });

  it('the first-difference ratio and the seeds that grow at each variant', () => {
    // step 1 already differs: B / A = (0.5 + 0.1 s + 0.01) / (0.1 s + 0.01), largest for seed 1
    expect(derive({ of: 'firstDifferenceRatio', metric: 'm', a: 0, b: 1, stat: 'max' })).toBe(value(1, 1, 1) / value(0, 1, 1));
    expect(derive({ of: 'firstDifferenceRatio', metric: 'm', a: 0, b: 1, stat: 'min', digits: 2 })).toBe(Math.round((value(1, 5, 1) / value(0, 5, 1)) * 100) / 100);
    expect(derive({ of: 'increasing', metric: 'm', variants: [0, 1, 2] })).toBe(5);
    expect(derive({ of: 'increasing', metric: 'm', variants: [2, 1] })).toBe(0);
  });

  it('the seeds whose metrics keep one value at every step (a claim in words), and the least and most a seed totals', () => {
    expect(derive({ of: 'seedsEqual', metric: 'counts[0]', variant: 2, equals: 2 })).toBe(5);
    expect(derive({ of: 'seedsEqual', metric: 'counts[0]', variant: 2, equals: 0 })).toBe(0);
    // sparse (measured at even steps only) is s (v + 1): 2 in variant 0 only for seed 2
    expect(derive({ of: 'seedsEqual', metric: 'sparse', variant: 0, equals: 2 })).toBe(1);
    expect(derive({ of: 'seedsEqual', metric: ['sparse', 'counts[0]'], variant: 1, equals: 1 })).toBe(0);
    expect(derive({ of: 'seedsEqual', metric: ['sparse', 'counts[0]'], variant: 0, equals: 1, from: 2 })).toBe(0);
    // counts[1] = s t: 4 only for seed 1 at step 4, seed 2 at step 2 and seed 4 at step 1
    expect(derive({ of: 'seedsEqual', metric: 'counts[1]', variant: 0, equals: 4, from: 4 })).toBe(1);
    expect(derive({ of: 'seedsEqual', metric: 'counts[1]', variant: 0, equals: 4, from: 1, to: 1 })).toBe(1);
    // counts[1] = s t: seed s totals s (1 + 2 + 3) over steps 1-3
    expect(derive({ of: 'seedTotal', metric: 'counts[1]', variant: 0, to: 3, stat: 'min' })).toBe(6);
    expect(derive({ of: 'seedTotal', metric: 'counts[1]', variant: 0, to: 3, stat: 'max' })).toBe(30);
    expect(() => derive({ of: 'seedTotal', metric: 'sparse', variant: 0, stat: 'max' })).toThrow(/seed 1 has no sparse at step 1: a total needs every step/);
  });

  it('the median onset of a change (one metric, or the mean of several) and the seeds where one change begins before another', () => {
    // 16 steps; seed s: "a" steps down from 1 to 0 at step 4 + 2 s, "b" up from 0 to 1 at step 7, "c" and "d"
    // down at steps 7 and 9 (their mean by half at each); "flat" never changes
    const steps = 16;
    const onsetSpec = parseExperimentSpec({ version: 1, name: 'onsets', base: { task: 'strategies' }, variants: [{ name: 'A', patch: {} }], seeds: [1, 2, 3], steps });
    const step = (at: number, t: number) => (t >= at ? 1 : 0);
    const onsetRuns: BundleRun[] = onsetSpec.seeds.map((s) => ({
      variant: 0, seed: s, config: variantConfig(onsetSpec, 0, s), timeline: [],
      frames: Array.from({ length: steps }, (_, i) => ({ step: i + 1, scalars: { a: 1 - step(4 + 2 * s, i + 1), b: step(7, i + 1), c: 1 - step(7, i + 1), d: 1 - step(9, i + 1), flat: 1 } }) as unknown as MetricsFrame),
    }));
    const r = makeRecord(onsetSpec, onsetRuns, ['a', 'b', 'c', 'd', 'flat'], produced);
    const onset = (rule: unknown) => deriveLessonValue(r, parseValueRule(rule, 'test'));
    // a step at k: the trailing 5-step mean is 25 % of the way from step k + 1 on, so a's onsets are 7, 9, 11 and b's 8
    expect(onset({ of: 'onset', metric: 'a', direction: 'fall', variant: 0 })).toBe(9);
    expect(onset({ of: 'onset', metric: 'b', direction: 'rise', variant: 0 })).toBe(8);
    // the mean of c and d is 1, 0.5 (steps 7-8), 0: its trailing mean first reaches 0.75 at step 9 (1 1 .5 .5 0)
    expect(onset({ of: 'onset', metric: ['c', 'd'], direction: 'fall', variant: 0 })).toBe(9);
    expect(onset({ of: 'onsetBefore', metric: 'a', direction: 'fall', than: 'b', thanDirection: 'rise', variant: 0 })).toBe(1); // seed 1
    expect(onset({ of: 'onsetBefore', metric: 'b', direction: 'rise', than: 'a', thanDirection: 'fall', variant: 0 })).toBe(2); // seeds 2 and 3
    expect(() => onset({ of: 'onset', metric: 'flat', direction: 'fall', variant: 0 })).toThrow(/seed 1: flat has no onset/);
    expect(() => onset({ of: 'onset', metric: 'a', direction: 'rise', variant: 0 })).toThrow(/seed 1: a has no onset \(no rise/);
    expect(() => parseValueRule({ of: 'onset', metric: 'a', direction: 'down', variant: 0 }, 'x')).toThrow(/"direction" must be one of fall, rise/);
    expect(() => parseValueRule({ of: 'onsetBefore', metric: 'a', direction: 'fall', variant: 0, thanDirection: 'rise' }, 'x')).toThrow(/"than" must be a metric name or a list/);
    expect(metricsOfRule({ of: 'onsetBefore', metric: ['a', 'b'], direction: 'fall', than: 'c', thanDirection: 'rise', variant: 0 }, onsetSpec)).toEqual(['a', 'b', 'c']);
  });

  it('refuses what it cannot derive honestly, with the reason', () => {
    const stopped = makeRecord(spec, runs.map((r) => (r.variant === 1 && r.seed === 3 ? { ...r, frames: r.frames.slice(0, 2), stoppedBy: 'non-finite metric m' } : r)), ['m', 'sparse'], produced);
    expect(() => deriveLessonValue(stopped, { of: 'median', metric: 'm', variant: 1 })).toThrow(/variant 1, seed 3: the run ends at step 2 \(non-finite metric m\)/);
    expect(() => deriveLessonValue(stopped, { of: 'paired', metric: 'm', a: 0, b: 1, stat: 'meanDiff' })).toThrow(/only 4 of 5 pairs/);
    const tied = makeRecord(spec, runs.map((r) => ({ ...r, frames: frames(0, r.seed) })), ['m'], produced);
    expect(() => deriveLessonValue(tied, { of: 'firstDifferenceRatio', metric: 'm', a: 0, b: 1, stat: 'min' })).toThrow(/seed 1: the runs never differ in m/);
    // seed 1 of B made equal to A on m (a tie) but not on sparse: m favours B in 4 seeds, sparse in 5
    const mixed = makeRecord(spec, runs.map((r) => (r.variant === 1 && r.seed === 1 ? { ...r, frames: frames(0, 1).map((f) => ({ ...f, scalars: { ...f.scalars, sparse: 99 } })) } : r)), ['m', 'sparse'], produced);
    expect(() => deriveLessonValue(mixed, { of: 'paired', metric: ['m', 'sparse'], a: 0, b: 1, stat: 'favourB' })).toThrow(/favour B in different numbers of seeds \(4, 5\)/);
    expect(() => derive({ of: 'median', metric: 'm', variant: 5 })).toThrow(/variant 5 is outside 0\.\.2/);
    expect(() => derive({ of: 'median', metric: 'm', variant: 0, from: 3, to: 9 })).toThrow(/step window 3–9 is not inside toy's steps 1–4/);
  });

  it('rules are checked field by field, and name the metrics a record must keep', () => {
    expect(() => parseValueRule({ of: 'average', metric: 'm' }, 'x')).toThrow(/x: "of" must be one of seeds, steps, paired/);
    expect(() => parseValueRule({ of: 'paired', metric: 'm', a: 0, b: 1, stat: 'favourB', lowerIsbetter: true }, 'x')).toThrow('x: unknown field "lowerIsbetter"');
    expect(() => parseValueRule({ of: 'paired', metric: 'm', a: 0, b: 1, stat: 'median' }, 'x')).toThrow(/"stat" must be one of meanDiff/);
    expect(() => parseValueRule({ of: 'paired', metric: ['m', 'n'], a: 0, b: 1, stat: 'meanDiff' }, 'x')).toThrow(/only as a count of seeds/);
    expect(() => parseValueRule({ of: 'median', metric: 'm', variant: -1 }, 'x')).toThrow(/"variant" must be a whole number/);
    expect(() => parseValueRule({ of: 'median', metric: 'm', variant: 0, fixed: true }, 'x')).toThrow(/"fixed" must be true and come with "digits"/);
    expect(() => parseValueRule({ of: 'increasing', metric: 'm', variants: [1] }, 'x')).toThrow(/at least two variant indices/);
    expect(() => parseValueRule({ of: 'seedsEqual', metric: [], variant: 0, equals: 0 }, 'x')).toThrow(/"metric" must be a metric name or a list/);
    expect(() => parseValueRule({ of: 'seedsEqual', metric: 'm', variant: 0, equals: '0' }, 'x')).toThrow(/"equals" must be a number/);
    expect(() => parseValueRule({ of: 'seedTotal', metric: 'm', variant: 0, stat: 'median' }, 'x')).toThrow(/"stat" must be one of min, max/);
    const rules: ValueRule[] = [{ of: 'seeds' }, { of: 'median', metric: 'a', per: 'b', variant: 0 }, { of: 'paired', metric: ['c', 'd'], a: 0, b: 1, stat: 'favourB' }, { of: 'seedsEqual', metric: ['e', 'f'], variant: 0, equals: 1 }, { of: 'seedTotal', metric: 'g', variant: 0, stat: 'min' }];
    expect(rules.flatMap((r) => metricsOfRule(r, spec))).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
  });
});

describe('readings of each seed\'s run over seeds (perSeed, seedsWhere)', () => {
  // 8 steps of the strategies task's math state (behaviors decompose, direct, search-first, verify;
  // the judge rewards decompose), ε 0.02 and 64 samples (the defaults). Seed 1: all four at 0.25,
  // direct gone from step 3, search-first and verify from step 4 (decompose alone). Seed 2: all four
  // kept, direct on top. Seed 3: verify gone from step 2, direct on top from then on. Token entropy
  // as a share of the base's 2: seed 1 1 − 0.05 t, seed 2 1 − 0.1 t, seed 3 0.7; support (its own
  // series) 4 4 3 1 1 1 1 1 / 4 3 4 3 4 4 4 4 / 4 3 3 3 3 3 3 3.
  const steps = 8;
  const readSpec = parseExperimentSpec({ version: 1, name: 'readings', base: { task: 'strategies' }, variants: [{ name: 'A', patch: {} }], seeds: [1, 2, 3], steps });
  const names = ['decompose', 'direct', 'search-first', 'verify'];
  const shares = (s: number, t: number): number[] => {
    if (s === 2) return [0.1, 0.4, 0.25, 0.25];
    if (s === 3) return t >= 2 ? [0.2, 0.5, 0.3, 0] : [0.25, 0.25, 0.25, 0.25];
    return t >= 4 ? [1, 0, 0, 0] : t === 3 ? [1 / 3, 0, 1 / 3, 1 / 3] : [0.25, 0.25, 0.25, 0.25];
  };
  const tokenShare = (s: number, t: number) => (s === 1 ? 1 - 0.05 * t : s === 2 ? 1 - 0.1 * t : 0.7);
  const support = { 1: [4, 4, 3, 1, 1, 1, 1, 1], 2: [4, 3, 4, 3, 4, 4, 4, 4], 3: [4, 3, 3, 3, 3, 3, 3, 3] } as Record<number, number[]>;
  const scalarsAt = (s: number, t: number) => {
    const p = shares(s, t);
    return {
      ...Object.fromEntries(names.flatMap((b, i) => [[`support/behavior_dist/math/${b}`, p[i]], [`support/behavior_dist_se/math/${b}`, Math.sqrt((p[i] * (1 - p[i])) / 64)]])),
      'support/behavior_dist/math/invalid': 0,
      'support/token_entropy': 2 * tokenShare(s, t),
      'support/behavior_support/math': t === 0 ? 4 : support[s][t - 1],
    };
  };
  const readRuns: BundleRun[] = readSpec.seeds.map((s) => ({
    variant: 0, seed: s, config: variantConfig(readSpec, 0, s), timeline: [], base: { ...scalarsAt(s, 0), 'support/token_entropy': 2 },
    frames: Array.from({ length: steps }, (_, i) => ({ step: i + 1, version: 0, scalars: scalarsAt(s, i + 1), series: {}, ratioEdges: [], perf: {}, changes: {}, trace: [] }) as unknown as MetricsFrame),
  }));
  const rulesOf = (xs: unknown[]) => xs.map((x) => parseValueRule(x, 'test'));
  const all = rulesOf([
    { of: 'perSeed', read: 'markerCount', state: 'math', variant: 0, stat: 'median' },
    { of: 'seedsWhere', read: 'topMissed', state: 'math', variant: 0 },
    { of: 'perSeed', read: 'dips', metric: 'support/behavior_support/math', variant: 0, stat: 'max' },
  ]);
  const keep = [...new Set(all.flatMap((r) => metricsOfRule(r, readSpec)))];
  const readRecord = parseRecord(JSON.parse(recordToJson(makeRecord(readSpec, readRuns, keep, produced))));
  const read = (rule: unknown) => deriveLessonValue(readRecord, parseValueRule(rule, 'test'));
  const markers = (readKind: string, stat?: string) => read({ of: stat ? 'perSeed' : 'seedsWhere', read: readKind, state: 'math', variant: 0, ...(stat ? { stat } : {}) });
  const metric = (readKind: string, stat: string, extra: object = {}) => read({ of: 'perSeed', read: readKind, metric: readKind === 'lastPercentOfBase' ? 'support/token_entropy' : 'support/behavior_support/math', variant: 0, stat, ...extra });

  it('a record keeps what the readings need: the state\'s shares and their errors, token entropy, its base values', () => {
    expect(keep).toEqual([...names.map((b) => `support/behavior_dist/math/${b}`), ...names.map((b) => `support/behavior_dist_se/math/${b}`), 'support/token_entropy', 'support/behavior_dist/math/invalid', 'support/behavior_support/math']);
    expect(readRecord.runs[0].base?.['support/token_entropy']).toBe(2);
    expect(recordBundle(readRecord).runs[2].base?.['support/behavior_support/math']).toBe(4);
  });

  it('the markers, as the plot draws them: seed 1 at steps 3 (4→3) and 4 (3→1, token entropy 80 % of step 0: pink), seed 2 none, seed 3 at step 2 (4→3, 70 %: grey)', () => {
    expect([markers('markerCount', 'median'), markers('markerCount', 'min'), markers('markerCount', 'max')]).toEqual([1, 0, 2]);
    // the last marker, over the seeds that have one (1 and 3)
    expect([markers('lastMarkerStep', 'median'), markers('lastMarkerStep', 'min'), markers('lastMarkerStep', 'max')]).toEqual([3, 2, 4]);
    expect([markers('lastMarkerPercent', 'median'), markers('lastMarkerPercent', 'min'), markers('lastMarkerPercent', 'max')]).toEqual([75, 70, 80]);
    expect(markers('lastMarkerToOne')).toBe(1);
    expect(markers('lastMarkerPink')).toBe(1);
  });

  it('a metric per seed: its first step at a value, its last value in % of step 0, its least and most, its dips; over a window', () => {
    expect(metric('firstStepAt', 'median', { equals: 1 })).toBe(4); // seed 1 only: seeds that never read 1 are left out
    expect(() => metric('firstStepAt', 'median', { equals: 0 })).toThrow(/no seed of variant 0 has a firstStepAt/);
    expect([metric('lastPercentOfBase', 'median'), metric('lastPercentOfBase', 'min'), metric('lastPercentOfBase', 'max')]).toEqual([60, 20, 70]);
    expect([metric('least', 'min'), metric('least', 'max'), metric('least', 'median'), metric('most', 'same')]).toEqual([1, 3, 3, 4]);
    expect(() => metric('least', 'same')).toThrow(/the seeds' least differ \(1, 3\)/);
    expect([metric('dips', 'median'), metric('dips', 'min'), metric('dips', 'max')]).toEqual([2, 1, 2]);
    expect([metric('dips', 'min', { from: 3 }), metric('dips', 'max', { from: 3 })]).toEqual([0, 1]);
    expect(metric('least', 'max', { to: 2 })).toBe(4);
  });

  it('the seeds whose state\'s top behavior is not the rewarded one at every step of the window (ties: the first behavior)', () => {
    expect(read({ of: 'seedsWhere', read: 'topMissed', state: 'math', variant: 0 })).toBe(1); // seed 2; seed 3 ties at step 1
    expect(read({ of: 'seedsWhere', read: 'topMissed', state: 'math', variant: 0, from: 2 })).toBe(2);
  });

  it('refuses a record without the base, a rule with fields of another reading, a state the task lacks', () => {
    const noBase = makeRecord(readSpec, readRuns.map(({ base: _b, ...r }) => r), keep, produced);
    expect(() => deriveLessonValue(noBase, parseValueRule({ of: 'perSeed', read: 'markerCount', state: 'math', variant: 0, stat: 'max' }, 'x'))).toThrow(/seed 1 has no base value \(step 0\) of support\/token_entropy: .*record it again/);
    expect(() => parseValueRule({ of: 'perSeed', read: 'markerCount', metric: 'm', variant: 0, stat: 'max' }, 'x')).toThrow(/"state" must be a state name/);
    expect(() => parseValueRule({ of: 'perSeed', read: 'least', metric: 'm', state: 'math', variant: 0, stat: 'max' }, 'x')).toThrow(/takes a metric, not a state/);
    expect(() => parseValueRule({ of: 'perSeed', read: 'least', metric: 'm', variant: 0, stat: 'max', equals: 1 }, 'x')).toThrow(/"equals" \(a number\) goes with read firstStepAt/);
    expect(() => parseValueRule({ of: 'perSeed', read: 'lastMarkerStep', state: 'math', variant: 0, stat: 'max', from: 2 }, 'x')).toThrow(/reads the whole run/);
    expect(() => parseValueRule({ of: 'seedsWhere', read: 'markerCount', state: 'math', variant: 0 }, 'x')).toThrow(/"read" must be one of lastMarkerToOne, lastMarkerPink, topMissed/);
    expect(() => parseValueRule({ of: 'perSeed', read: 'markerCount', state: 'math', variant: 0, stat: 'mean' }, 'x')).toThrow(/"stat" must be one of median, min, max, same/);
    expect(() => metricsOfRule(parseValueRule({ of: 'seedsWhere', read: 'topMissed', state: 'chat', variant: 0 }, 'x'), readSpec)).toThrow(/the task has no state "chat"/);
  });
});
