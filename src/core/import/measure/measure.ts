// Per-step measurements of imported samples under the lab's metric names (../measure/names.ts), through the
// same functions the lab uses (behaviorScalars, bucketVariance, entropyOf):
//   support/behavior_dist[_se]/<state>/<behavior>, support/behavior_entropy/<state>,
//   support/behavior_support/<state>; grad/reward_var, grad/zero_std_frac (within the groups of
//   two or more judged samples; a one-sample group has no within-group variance to measure, so a
//   step without such groups — OpenClaw's sessions, one sample per prompt — is bucketed by state,
//   as the lab does for methods without groups: metrics.ts rewardStats);
//   support/token_entropy ONLY from the log's own per-token log-probs (−mean log π(sampled token),
//   an unbiased estimate of the policy's token entropy); without log-probs the empirical
//   support/token_entropy_empirical = H(next token | previous token) over the step's tokenized
//   responses, and support/distinct_1 / support/distinct_2 (unique n-grams / n-grams);
//   reward/mean, reward/var (all judged samples of the step); import/samples, import/judged,
//   import/unclassified, import/response_tokens (mean). Per state: import/state_samples/<state> (n),
//   support/behavior_count/<state>/<behavior> (0 for a behavior no sample had), and the token
//   entropies support/token_entropy[_empirical]/<state>; and the counts a task fit reads (fit-counts.ts,
//   fit-tokens.ts).
import type { ScalarsWith } from '../../measure/names';
import { behaviorScalars, bucketVariance, type MetricsFrame } from '../../metrics';
import type { Gate } from '../../gates/index';
import { FitCounts } from './fit-counts';
import { behaviorCountKey, stateSamplesKey } from './fit-keys';
import { funnelScalars, gateSampleOf, replayStep, type GateSample } from './gate';
import { sampleFacts, TokenTable, type SampleFacts } from './sample-facts';
import { sampleRecord, withGate, type SampleRecord } from '../samples/record';
import type { BehaviorClassifier, StateClassifier } from '../rules/rules';
import { PairCounts } from './pair-counts';
import { StepTokens } from './step-tokens';
import { tokensOf } from './tokens';
import type { ImportedSample } from '../types';
import type { RewardReader } from '../rules/reward';
import type { Arrived, Discovery, Labeled } from '../discover/step-labels';
import type { BehaviorFeatures } from '../discover/discoverer';

/** Tokens per response used by the empirical token statistics (bounds memory on long responses). */
export const TOKEN_CAP = 256;

class StepAcc {
  n = 0;
  judged = 0;
  unclassified = 0;
  counts = new Map<string, Map<string, number>>();
  groups = new Map<string, number[]>();
  byState = new Map<string, number[]>();
  rSum = 0;
  rSq = 0;
  /** −Σ log π and token count, per state (pooled at frame time). */
  logprob = new Map<string, { sum: number; n: number }>();
  gate: GateSample[] = [];
  /** The samples' lines (samples/record.ts), kept only while a sink records them. */
  rows: SampleRecord[] = [];
  fit = new FitCounts();
  /**
   * With discovery: the step's samples, labelled and counted when the step is measured, as what
   * measuring and discovery need of them (sample-facts.ts; no text), tokens as ids into `heldTokens`.
   */
  held: { facts: SampleFacts; tokens: Int32Array; arrived: Arrived }[] = [];
  heldTokens = new TokenTable();
  /**
   * Next-token counts per state and previous token, distinct n-grams: a table taken when the step's
   * first sample is counted (with discovery, when the step is measured: an open step waiting for
   * its labels holds none).
   */
  tokens: StepTokens | null = null;
}

function pushTo(m: Map<string, number[]>, key: string, x: number): void {
  const xs = m.get(key);
  if (xs) xs.push(x);
  else m.set(key, [x]);
}

/** The groups with two or more judged samples; none → the step's states. */
function rewardBuckets(a: StepAcc): number[][] {
  const groups = [...a.groups.values()].filter((xs) => xs.length > 1);
  return groups.length ? groups : [...a.byState.values()];
}

export type TokenEntropyKind = 'logprob' | 'empirical' | 'mixed';

/** Where a measure hands each step's sample lines once the step is measured (`--samples-out`, the rollout viewer). */
export interface SampleRowsSink {
  /** The folder the sample files' names are made relative to ('' = as they are). */
  root: string;
  /** A step's lines, in the order its samples were labelled; with a gate, its decisions attached. */
  step(step: number, rows: SampleRecord[]): void;
}

/** A sample of a step that was already measured and let go (the log is not in step order). */
export class StepOrderError extends Error {
  constructor(readonly step: number, file: string, line: number) {
    super(`${file}:${line}: step ${step} appears again after later steps were measured`);
  }
}

/** A measured step: the behavior counts (named at the end, when every behavior is known) and the rest. */
interface MeasuredStep {
  counts: Map<string, Map<string, number>>;
  /** With discovery: the behavior names known once this step was labelled (its frame names these). */
  names: string[] | null;
  scalars: ScalarsWith;
  series: MetricsFrame['series'];
}

/**
 * Per-step tallies of imported samples. With `openSteps` finite, memory is bounded by that many
 * steps' tallies: when a sample opens a step beyond it, the oldest open step is measured and its
 * token tables, rewards and gate samples are let go (a log in step order — verl, TRL and OpenClaw
 * snapshots one file a step — never returns to it). A sample of a step already let go throws
 * StepOrderError; `measureLogs` then measures again holding every step.
 */
export class ImportMeasure {
  private steps = new Map<number, StepAcc>();
  private measured = new Map<number, MeasuredStep>();
  /** Token tables of measured steps, emptied, for the next steps to reuse; the pooled counts' table, shared. */
  private spareTokens: StepTokens[] = [];
  private pooledScratch = new PairCounts();
  private behaviorsSeen = new Set<string>();
  unclassified = 0;
  samples = 0;
  private withLogprobs = 0;
  private rowsSink: SampleRowsSink | null = null;

  constructor(
    readonly states: StateClassifier,
    readonly behaviors: BehaviorClassifier,
    readonly eps: number,
    /** Gate to replay on each step's samples (the counterfactual funnel), or null. */
    readonly gate: Gate | null = null,
    /** Steps held open at once (Infinity: all, for a log out of step order). */
    readonly openSteps = Infinity,
    /** The judge's score when the user named one (rules/reward.ts); null: the format's own. */
    readonly reward: RewardReader | null = null,
    /** Behaviors or states discovered: a step's samples are labelled when it is measured. */
    readonly discovery: Discovery | null = null,
  ) {}

  /**
   * Each sample once it is labelled (at once, or with discovery when its step is measured), in that
   * order. Set before the samples it should hear: only while it is set does a step waiting for its
   * labels hold its samples whole.
   */
  onLabeled: ((s: ImportedSample, state: string, behavior: string) => void) | null = null;

  /** A sample read; `features`: its behavior discovery features when made elsewhere (a worker thread). */
  add(s: ImportedSample, features?: BehaviorFeatures): void {
    if (this.measured.has(s.step)) throw new StepOrderError(s.step, s.file, s.line);
    if (this.reward) s.reward = this.reward.read(s);
    const a = this.stepOf(s.step);
    const facts = sampleFacts(s, this.gate !== null, this.onLabeled !== null, this.rowsSink !== null);
    const tokens = tokensOf(s, TOKEN_CAP);
    if (this.discovery) a.held.push({ facts, tokens: a.heldTokens.idsOf(tokens), arrived: this.discovery.arrive(s, this.states, this.behaviors, features) });
    else this.count(a, facts, tokens, { state: this.states.classify(s), ...this.behaviors.classify(s) });
  }

  /** The open step's tallies (a new step may first measure the oldest, to stay within openSteps). */
  private stepOf(step: number): StepAcc {
    let a = this.steps.get(step);
    if (!a) {
      // the oldest step is measured first, so the new one can take its emptied token tables (count)
      while (this.steps.size >= this.openSteps) this.measureStep(Math.min(...this.steps.keys()));
      this.steps.set(step, (a = new StepAcc()));
    }
    return a;
  }

  /** A labelled sample into its step's tallies (`toks`: its tokens, capped). */
  private count(a: StepAcc, s: SampleFacts, toks: readonly string[], c: Labeled): void {
    const state = c.state;
    a.n++;
    this.samples++;
    if (c.rule === null) {
      a.unclassified++;
      this.unclassified++;
    }
    if (c.rule !== -2 && !(this.discovery?.behaviors && c.rule === null)) this.behaviorsSeen.add(c.behavior);
    let m = a.counts.get(state);
    if (!m) a.counts.set(state, (m = new Map()));
    m.set(c.behavior, (m.get(c.behavior) ?? 0) + 1);
    if (s.reward !== null) {
      a.judged++;
      a.rSum += s.reward;
      a.rSq += s.reward * s.reward;
      const g = s.group ?? `state:${state}`;
      pushTo(a.groups, g, s.reward);
      pushTo(a.byState, state, s.reward);
    }
    if (s.logprobs && s.logprobs.length) {
      this.withLogprobs++;
      let lp = a.logprob.get(state);
      if (!lp) a.logprob.set(state, (lp = { sum: 0, n: 0 }));
      for (const x of s.logprobs) lp.sum -= x;
      lp.n += s.logprobs.length;
    }
    if (s.gate) a.gate.push(gateSampleOf(s.gate, state));
    if (this.rowsSink) a.rows.push(sampleRecord(s, state, c.behavior, this.rowsSink.root));
    a.fit.add(s.fit, state, c.behavior, toks);
    (a.tokens ??= this.spareTokens.pop() ?? new StepTokens()).add(state, toks);
    if (s.sample) this.onLabeled?.(s.sample, state, c.behavior);
  }

  /** From now on, each measured step's sample lines go to `sink` (set before the first sample). */
  recordSamples(sink: SampleRowsSink): void {
    if (this.samples || this.steps.size) throw new Error('recordSamples: set the sink before the first sample');
    this.rowsSink = sink;
  }

  tokenEntropyKind(): TokenEntropyKind {
    return this.withLogprobs === 0 ? 'empirical' : this.withLogprobs === this.samples ? 'logprob' : 'mixed';
  }

  /**
   * Behavior names in legend order: the rules' labels (a label no sample had is listed, with 0), then
   * the others sorted: labels seen in the log and the behaviors discovered so far.
   */
  behaviorNames(): string[] {
    return this.namesWith(this.discovery?.behaviorNames() ?? []);
  }

  /** The rules' labels and the log's own labels seen so far (what a follow renames written frames for). */
  labelNames(): string[] {
    return this.namesWith([]);
  }

  /** The legend: the rules' labels, then `more` and the labels seen, sorted. */
  namesWith(more: Iterable<string>): string[] {
    const fromRules = this.behaviors.labels();
    const extra = [...new Set([...this.behaviorsSeen, ...more])].filter((b) => !fromRules.includes(b)).sort();
    return [...fromRules, ...extra].filter((b) => b !== 'invalid');
  }

  /** Steps whose tallies are held now (the bound the benchmark checks). */
  get openStepCount(): number {
    return this.steps.size;
  }

  /** Token tables held (open steps' and those kept for the next steps): a step waiting for discovery's labels holds none. */
  get tokenTables(): number {
    let n = this.spareTokens.length;
    for (const a of this.steps.values()) if (a.tokens) n++;
    return n;
  }

  /** Entries the open steps hold (token-table entries, rewards, gate samples): what grows with a step's size, never with the step count. */
  get heldEntries(): number {
    let n = 0;
    for (const a of this.steps.values()) n += (a.tokens?.entries ?? 0) + a.fit.entries + 2 * a.judged + a.gate.length + a.held.length + a.heldTokens.size;
    return n;
  }

  frames(): MetricsFrame[] {
    for (const step of this.openStepList()) this.measureStep(step);
    const names = this.behaviorNames();
    return [...this.measured.keys()].sort((x, y) => x - y).map((step) => this.frameOf(step, names));
  }

  /**
   * A follower's step, complete as its writer says: measured now (if still open) and its frame
   * returned with the behavior names known now; its tallies are let go. Null when the step has no sample.
   */
  closeStep(step: number): MetricsFrame | null {
    if (this.steps.has(step)) this.measureStep(step);
    if (!this.measured.has(step)) return null;
    const f = this.frameOf(step, this.behaviorNames());
    this.measured.delete(step);
    return f;
  }

  /** A follower's frames of the steps let go by `openSteps` (a log in step order), in step order. */
  takeMeasured(): MetricsFrame[] {
    const steps = [...this.measured.keys()].sort((x, y) => x - y);
    return steps.map((step) => this.closeStep(step)!);
  }

  /** Forget a step's open tallies (a follower reads its file again). */
  discardStep(step: number): void {
    const a = this.steps.get(step);
    if (!a) return;
    this.steps.delete(step);
    this.samples -= a.n;
    this.unclassified -= a.unclassified;
  }

  /** Steps with open tallies. */
  openStepList(): number[] {
    return [...this.steps.keys()].sort((x, y) => x - y);
  }

  /** Labels a follow saw before it was restarted (the frames it wrote name them). */
  seeLabels(labels: Iterable<string>): void {
    for (const b of labels) this.behaviorsSeen.add(b);
  }

  /** A step's frame: behavior counts under `names` (0 for a behavior the step had not), then the rest. */
  private frameOf(step: number, names: readonly string[]): MetricsFrame {
    const done = this.measured.get(step)!;
    // discovered names: those known when the step was labelled (a later behavior is not in its frame)
    return stepFrame(step, done.counts, done.names ? this.namesWith(done.names) : names, this.eps, done.scalars, done.series);
  }

  /** Everything of a step but its behavior counts, measured now; its tallies are let go. */
  private measureStep(step: number): void {
    const a = this.steps.get(step)!;
    this.steps.delete(step);
    if (this.discovery) {
      const labels = this.discovery.stepArrived(step, a.held.map((h) => h.arrived));
      a.held.forEach((h, k) => this.count(a, h.facts, a.heldTokens.tokensOf(h.tokens), labels[k]));
      a.held = [];
      a.heldTokens = new TokenTable();
    }
    const scalars: ScalarsWith = {};
    let lpSum = 0;
    let lpN = 0;
    for (const [state, lp] of a.logprob) {
      scalars[`support/token_entropy/${state}`] = lp.sum / lp.n;
      lpSum += lp.sum;
      lpN += lp.n;
    }
    if (lpN) scalars['support/token_entropy'] = lpSum / lpN;
    a.tokens?.scalars(scalars, this.pooledScratch);
    const responseTokens = a.n && a.tokens ? a.tokens.tokens / a.n : 0;
    if (this.openSteps !== Infinity && a.tokens) {
      a.tokens.reset();
      this.spareTokens.push(a.tokens);
    }
    if (a.judged) {
      const mean = a.rSum / a.judged;
      scalars['reward/mean'] = mean;
      scalars['reward/var'] = Math.max(0, a.rSq / a.judged - mean * mean);
      const rv = bucketVariance(rewardBuckets(a));
      scalars['grad/reward_var'] = rv.rewardVar;
      scalars['grad/zero_std_frac'] = rv.zeroStdFrac;
    }
    a.fit.scalars(scalars);
    scalars['import/samples'] = a.n;
    scalars['import/judged'] = a.judged;
    scalars['import/unclassified'] = a.unclassified;
    scalars['import/response_tokens'] = responseTokens;
    const series: MetricsFrame['series'] = {};
    let rows = a.rows;
    if (this.gate) {
      const r = replayStep(this.gate, a.gate);
      Object.assign(scalars, funnelScalars(r.funnel));
      series['gate/rule_counts'] = r.funnel.rules;
      if (this.rowsSink) rows = withGate(rows, a.gate.map((g) => g.session), r.order, r.records, r.decisions);
    }
    this.measured.set(step, { counts: a.counts, names: this.discovery ? this.discovery.behaviorNames() : null, scalars, series });
    this.rowsSink?.step(step, rows);
  }
}

/** A step's frame: the behavior block per state (sorted) under `names`, then the step's other scalars. */
function stepFrame(step: number, byState: ReadonlyMap<string, ReadonlyMap<string, number>>, names: readonly string[], eps: number, rest: ScalarsWith, series: MetricsFrame['series']): MetricsFrame {
  const scalars: ScalarsWith = {};
  for (const [state, m] of [...byState].sort((x, y) => (x[0] < y[0] ? -1 : 1))) {
    const counts = [...names.map((b) => m.get(b) ?? 0), m.get('invalid') ?? 0];
    behaviorScalars(state, names, counts, eps, scalars);
    // the counts behind the distribution: n per state and per behavior (0 for one no sample had)
    scalars[stateSamplesKey(state)] = counts.reduce((x, y) => x + y, 0);
    names.forEach((b, i) => (scalars[behaviorCountKey(state, b)] = counts[i]));
    scalars[behaviorCountKey(state, 'invalid')] = counts[names.length];
  }
  Object.assign(scalars, rest);
  // an imported step carries the subset of the metrics a log can give
  return { step, version: step, scalars, series, ratioEdges: [], perf: {}, changes: {}, trace: [] };
}

/** The keys of a frame's behavior block (stepFrame): named by state and behavior, never in the rest. */
const BLOCK = /^(support\/behavior_(dist|dist_se|entropy|support|count)|import\/state_samples)\//;
const COUNT = 'support/behavior_count/';

/** A frame's behavior counts per state, read back from its `support/behavior_count/<state>/<behavior>` keys. */
export function frameBehaviorCounts(f: MetricsFrame): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const [k, v] of Object.entries(f.scalars)) {
    if (!k.startsWith(COUNT) || v === undefined) continue;
    const [state, behavior] = k.slice(COUNT.length).split('/'); // safe names hold no "/"
    let m = out.get(state);
    if (!m) out.set(state, (m = new Map()));
    m.set(behavior, v);
  }
  return out;
}

/**
 * A written step's frame under a longer list of behavior names (a follow that met a new label of
 * the log): its behavior block framed again from its counts, the rest as it was — the frame the
 * one-shot import gives the step once it knows every name.
 */
export function renameBehaviors(f: MetricsFrame, names: readonly string[], eps: number): MetricsFrame {
  const rest: ScalarsWith = {};
  for (const [k, v] of Object.entries(f.scalars)) if (!BLOCK.test(k)) rest[k as keyof ScalarsWith] = v;
  return stepFrame(f.step, frameBehaviorCounts(f), names, eps, rest, f.series);
}
