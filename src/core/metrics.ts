// The measurements of the four invariants, written once, under the metric names of measure/names.ts
// (measure/names.ts), and the frame they fill: a frame's type says which metrics it really carries.
import type { BuiltBatch, Queued } from './batch';
import type { TrainMetrics } from './engine';
import { isEffective } from './gates/funnel';
import type { SampleRecord } from './gates/sample';
import { behaviorInfo, requestGap } from './measure/behavior-info';
import { entropyOf } from './measure/entropy';
import type { PerfName, ScalarName, ScalarsWith, SeriesName, SeriesWith, StepScalarName, TokenScalarName, TrainedScalarName } from './measure/names';
import type { GateDecision } from './gates/decision';
import type { JudgedTurn } from './credit/types';
import type { Generated } from './serve';
import { INVALID } from './tasks/grammar';
import { chooseHint } from './tasks/judge';
import type { Task } from './tasks/types';
import { CONTEXT, NEW_TOKENS, PROMPT_LENGTH, tokenName } from './tasks/vocab';

/**
 * A scalar by a name known only at run time (a parsed file, a user's metric list, `--metric`):
 * undefined when absent. Own entries only: "constructor" is no metric, not Object's function.
 */
export const scalarAt = (scalars: ScalarsWith, name: string): number | undefined => (Object.hasOwn(scalars, name) ? (scalars as Partial<Record<string, number>>)[name] : undefined);
/** A series by a run-time name (own entries only, as scalarAt). */
export const seriesAt = (series: SeriesWith, name: string): number[] | undefined => (Object.hasOwn(series, name) ? (series as Partial<Record<string, number[]>>)[name] : undefined);

export interface SampleTrace {
  session: number;
  turn: number;
  state: string;
  response: string;
  behavior: string;
  votes: number[];
  score: number;
  reward: number;
  hint: string | null;
  hintVotes: string[];
  queued: boolean;
  lossMask: number;
  /** Index of the gate rule that decided (rules.length: none matched). */
  rule: number;
  /** Its label (or "rule N"). */
  ruleName: string;
  /** The sample's fields as the gate saw them (counterfactual replay reads these). */
  fields: SampleRecord;
  advMean: number;
  advMin: number;
  advMax: number;
  /** Advantage of each response token (empty when the sample was not queued). */
  advantages: number[];
}

/**
 * One step's metrics. `K` / `S`: the scalar / series names the frame is sure to carry; any other name
 * may be absent (a frame of unknown origin, read from a file or a store: K = S = never).
 */
export interface MetricsFrame<K extends ScalarName = never, S extends SeriesName = never> {
  step: number;
  /** Trainer version (optimizer steps) after this step. */
  version: number;
  /** Scalar metrics by name (measure/names.ts); deterministic given seed + config. */
  scalars: ScalarsWith<K>;
  /** Vector metrics: `support/pass_at_k` and `support/pass_at_k_base` (index k − 1), `gap/ratio_hist`, `gate/rule_counts`. */
  series: SeriesWith<S>;
  /** Bin edges of `gap/ratio_hist` (counts has edges.length + 1 bins). */
  ratioEdges: number[];
  /** Wall-clock throughput (`perf/steps_per_s`, `perf/tokens_per_s`): not deterministic. */
  perf: Partial<Record<PerfName, number>>;
  /** Config changes that took effect at this step. */
  changes: Record<string, unknown>;
  trace: SampleTrace[];
}

/** Unbiased pass@k from n samples with c passes: 1 − C(n − c, k) / C(n, k). */
export function passAtK(n: number, c: number, k: number): number {
  if (k > n) return NaN;
  if (n - c < k) return 1;
  let q = 1;
  for (let i = n - c + 1; i <= n; i++) q *= 1 - k / i;
  return 1 - q;
}

/**
 * One state's behavior distribution from counts (`counts[names.length]` = invalid), its standard
 * error sqrt(p(1 − p)/n), entropy over the valid behaviors and support #{b : p(b) > eps}, written
 * into `out` under the names of measure/names.ts. The lab's Monte Carlo measure and imported logs both use it.
 */
export function behaviorScalars(state: string, names: readonly string[], counts: readonly number[], eps: number, out: ScalarsWith): void {
  const n = counts.reduce((a, c) => a + c, 0);
  if (n === 0) return;
  const p = counts.map((c) => c / n);
  names.forEach((bh, i) => {
    out[`support/behavior_dist/${state}/${bh}`] = p[i];
    out[`support/behavior_dist_se/${state}/${bh}`] = Math.sqrt((p[i] * (1 - p[i])) / n);
  });
  out[`support/behavior_dist/${state}/invalid`] = p[names.length] ?? 0;
  const valid = p.slice(0, names.length);
  out[`support/behavior_entropy/${state}`] = entropyOf(valid);
  out[`support/behavior_support/${state}`] = valid.filter((x) => x > eps).length;
}

/** The frames the training loop produces: every step scalar, the token measure and every series. */
export type TrainedFrame = MetricsFrame<TrainedScalarName, SeriesName>;

export interface BehaviorMeasure {
  scalars: ScalarsWith<TokenScalarName>;
  passAtK: number[];
}

/**
 * Behavior distribution per state by Monte Carlo from `gen` (rows grouped by `states`), with its
 * standard error, entropy and support (behaviors with p > eps); token entropy (mean over generated
 * positions) and token support (mean over positions of tokens with empirical frequency > tokenEps);
 * pass@k (k = 1…kMax) averaged over states.
 */
export function measureBehavior(task: Task, gen: Generated, states: readonly number[], eps: number, tokenEps: number, kMax = 64): BehaviorMeasure {
  const scalars: ScalarsWith = {};
  const T = CONTEXT - 1;
  const nb = task.behaviors.length;
  const pass = new Array<number>(kMax).fill(0);
  const dists: number[][] = [];
  const goods: (readonly number[])[] = [];
  const countRows: number[][] = [];
  task.states.forEach((st, s) => {
    const rows = states.flatMap((x, b) => (x === s ? [b] : []));
    const n = rows.length;
    if (n === 0) return;
    const counts = new Array<number>(nb + 1).fill(0);
    for (const b of rows) counts[gen.behavior[b] === INVALID ? nb : gen.behavior[b]]++;
    behaviorScalars(st.name, task.behaviors.map((b) => b.name), counts, eps, scalars);
    dists.push(counts.map((c) => c / n));
    countRows.push(counts);
    goods.push(task.good[s]);
    const c = rows.filter((b) => task.good[s].includes(gen.behavior[b])).length;
    for (let k = 1; k <= kMax; k++) pass[k - 1] += passAtK(n, c, k) / task.states.length;
  });
  if (dists.length) {
    const info = behaviorInfo(dists, goods);
    scalars['support/behavior_cond_entropy'] = info.condEntropy;
    scalars['support/behavior_mutual_info'] = info.mutualInfo;
    scalars['support/best_behavior_match'] = info.bestMatch;
    scalars['gap/request_kl'] = requestGap(countRows, goods);
  }
  let entSum = 0;
  let entCount = 0;
  let supSum = 0;
  let supCount = 0;
  for (let i = 0; i < NEW_TOKENS; i++) {
    const t = PROMPT_LENGTH - 1 + i;
    const freq = new Map<number, number>();
    let rows = 0;
    for (let b = 0; b < states.length; b++) {
      if (i >= gen.responseLength[b]) continue;
      rows++;
      entSum += gen.entropy[b * T + t];
      entCount++;
      const tok = gen.tokens[b * CONTEXT + t + 1];
      freq.set(tok, (freq.get(tok) ?? 0) + 1);
    }
    if (rows === 0) continue;
    supSum += [...freq.values()].filter((f) => f / rows > tokenEps).length;
    supCount++;
  }
  // the token scalars come last, as they always have (a frame's key order is part of its export)
  return { scalars: { ...scalars, 'support/token_entropy': entCount ? entSum / entCount : 0, 'support/token_support': supCount ? supSum / supCount : 0 }, passAtK: pass };
}

/** Reward variance per state (mean over states) and the share of zero-variance groups. */
export function rewardStats(turns: readonly JudgedTurn[], byGroup: boolean): { rewardVar: number; zeroStdFrac: number } {
  const buckets = new Map<number, number[]>();
  for (const t of turns) {
    if (!t.hasNext) continue;
    const k = byGroup ? t.group : t.state;
    buckets.set(k, [...(buckets.get(k) ?? []), t.reward]);
  }
  return bucketVariance(buckets.values());
}

/** Mean within-bucket (population) reward variance, and the share of buckets with variance 0. */
export function bucketVariance(buckets: Iterable<readonly number[]>): { rewardVar: number; zeroStdFrac: number } {
  let varSum = 0;
  let zero = 0;
  let n = 0;
  for (const xs of buckets) {
    const m = xs.reduce((a, x) => a + x, 0) / xs.length;
    const v = xs.reduce((a, x) => a + (x - m) ** 2, 0) / xs.length;
    varSum += v;
    if (v < 1e-12) zero++;
    n++;
  }
  return { rewardVar: n ? varSum / n : 0, zeroStdFrac: n ? zero / n : 0 };
}

export const RATIO_EDGES = [0.5, 0.7, 0.8, 0.9, 0.95, 1.05, 1.1, 1.2, 1.28, 1.5, 2];

export function ratioHistogram(ratio: ArrayLike<number>, mask: ArrayLike<number>, edges = RATIO_EDGES): number[] {
  const counts = new Array<number>(edges.length + 1).fill(0);
  for (let i = 0; i < ratio.length; i++) {
    if (!mask[i]) continue;
    let j = 0;
    while (j < edges.length && ratio[i] >= edges[j]) j++;
    counts[j]++;
  }
  return counts;
}

const hintText = (task: Task, h: ReturnType<typeof chooseHint>) => (h ? `${task.behaviors[h.behavior].name} (${h.length} words)` : null);

export function traceOf(task: Task, t: JudgedTurn, d: GateDecision, adv: Float32Array | null, ruleName: string, fields: SampleRecord): SampleTrace {
  const resp = Array.from(t.tokens.subarray(PROMPT_LENGTH, PROMPT_LENGTH + t.responseLength), (x) => tokenName(x, task.tokenNames)).join(' ');
  let sum = 0;
  let n = 0;
  let min = Infinity;
  let max = -Infinity;
  const advantages: number[] = [];
  if (adv) {
    for (let i = PROMPT_LENGTH - 1; i < PROMPT_LENGTH - 1 + t.responseLength; i++) {
      advantages.push(adv[i]);
      sum += adv[i];
      n++;
      min = Math.min(min, adv[i]);
      max = Math.max(max, adv[i]);
    }
  }
  return {
    session: t.session,
    turn: t.turn,
    state: task.states[t.state].name,
    response: resp,
    behavior: t.behavior === INVALID ? 'invalid' : task.behaviors[t.behavior].name,
    votes: t.votes,
    score: t.score,
    reward: t.reward,
    hint: hintText(task, d.usesHint ? chooseHint(t.hintVotes, 0) : null),
    hintVotes: t.hintVotes.map((v) => (v.vote === 1 && v.behavior !== null ? `+1 ${task.behaviors[v.behavior].name}/${v.length}` : '-1')),
    queued: d.queued,
    lossMask: d.lossMask,
    rule: d.rule,
    ruleName,
    fields,
    advMean: n ? sum / n : 0,
    advMin: n ? min : 0,
    advMax: n ? max : 0,
    advantages,
  };
}

/** First non-finite scalar of a frame, as "name = value", or null (a NaN/Inf stops a run). */
export function nonFinite(frame: MetricsFrame): string | null {
  for (const [k, v] of Object.entries(frame.scalars)) if (!Number.isFinite(v)) return `${k} = ${v}`;
  return null;
}

/** What one step served, gated, queued and trained: the inputs of stepScalars. */
export interface StepInput {
  served: readonly JudgedTurn[];
  /** Every queued sample (the trained batch is the first `trained`; the rest overflowed). */
  queue: readonly Queued[];
  trained: number;
  dropped: number;
  requests503: number;
  lost503: number;
  staleness: number;
  /** Rewards are bucketed by group (grouped gate) or by state. */
  grouped: boolean;
  hintMinLength: number;
  built: BuiltBatch | null;
  train: readonly TrainMetrics[];
}

/** A queued sample carries a learning signal: mask 1 and a nonzero RL term or a teacher term. */
export { isEffective };

/**
 * The step's scalars. ESR, one definition for every gate: `esr/effective_rate` = effective / queued,
 * `esr/yield` = effective / served.
 */
export function stepScalars(x: StepInput): Record<StepScalarName, number> {
  const tm = x.train;
  const mean = (f: (m: TrainMetrics) => number) => (tm.length ? tm.reduce((a, m) => a + f(m), 0) / tm.length : 0);
  const rs = rewardStats(x.served, x.grouped);
  let maskedTokens = 0;
  let responseTokens = 0;
  let advAbs = 0;
  let active = 0;
  if (x.built) {
    const { lossMask, advantages } = x.built.batch;
    for (let i = 0; i < lossMask.length; i++) {
      responseTokens += x.built.responseMask[i];
      if (x.built.responseMask[i] && !lossMask[i]) maskedTokens++;
      if (lossMask[i]) {
        advAbs += Math.abs(advantages[i]);
        active++;
      }
    }
  }
  const judged = x.served.filter((t) => t.hasNext);
  const effective = x.queue.filter((q) => isEffective(q.decision)).length;
  return {
    'grad/reward_var': rs.rewardVar,
    'reward/mean': x.served.length ? x.served.reduce((a, t) => a + t.reward, 0) / x.served.length : 0,
    'grad/zero_std_frac': rs.zeroStdFrac,
    'grad/norm': mean((m) => m.gradNorm),
    'grad/adv_abs_mean': active ? advAbs / active : 0,
    'gap/clipfrac_low': mean((m) => m.clipfracLow),
    'gap/clipfrac_high': mean((m) => m.clipfracHigh),
    'gap/ppo_kl': mean((m) => m.ppoKl),
    'gap/rollout_logprob_abs_diff': x.built ? x.built.rolloutGap : 0,
    'gap/requests_503': x.requests503,
    'gap/lost_503': x.lost503,
    'gap/staleness': x.staleness,
    'esr/effective_rate': x.queue.length ? effective / x.queue.length : 0,
    'esr/yield': x.served.length ? effective / x.served.length : 0,
    'esr/hint_accept_rate': judged.length ? judged.filter((t) => chooseHint(t.hintVotes, x.hintMinLength)).length / judged.length : 0,
    'esr/served': x.served.length,
    'esr/queued': x.trained,
    'esr/masked': x.built ? x.queue.slice(0, x.trained).filter((q) => q.decision.lossMask === 0).length : 0,
    'esr/dropped': x.dropped,
    'esr/overflow': Math.max(0, x.queue.length - x.trained),
    'esr/mask0_compute_share': responseTokens ? maskedTokens / responseTokens : 0,
    'train/loss': mean((m) => m.loss),
    'train/pg_loss': mean((m) => m.pgLoss),
    'train/entropy': mean((m) => m.entropy),
    'train/updates': tm.length,
  };
}
