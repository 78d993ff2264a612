// The training loop against PolicyEngine: serve → judge → gate → queue → train → sync → measure.
// One Run per experiment; step() returns one metrics frame; setConfig() takes effect at the next
// step and is recorded on the timeline. Deterministic from the seed (RNG streams in rng.ts).
import { applyPatch, type Config } from './config';
import type { PolicyEngine, PpoHyper, TrainMetrics, WeightsHandle } from './engine';
import { sampleRow, T } from './methods/advantage';
import { creditRewards } from './methods/credit';
import { METHODS, isGrouped } from './methods/index';
import type { GateDecision, GateOptions, JudgedTurn } from './methods/types';
import { RATIO_EDGES, measureBehavior, ratioHistogram, rewardStats, traceOf, type MetricsFrame, type SampleTrace } from './metrics';
import { sftOnGold } from './pretrain';
import { makeStreams, type Rng, type RngStreams } from './rng';
import { generate, serveSessions } from './serve';
import { chooseHint } from './tasks/judge';
import { TASKS } from './tasks/index';
import type { Task } from './tasks/types';
import { CONTEXT, HINT_SLOT, PROMPT_LENGTH } from './tasks/vocab';

export interface TimelineEntry {
  step: number;
  patch: Partial<Config>;
}

interface Queued {
  turn: JudgedTurn;
  decision: GateDecision;
}

const TRACE_MAX = 64;

export function ppoHyper(c: Config): PpoHyper {
  return {
    lr: c.lr, beta1: c.beta1, beta2: c.beta2, eps: c.adamEps, weightDecay: c.weightDecay, maxGradNorm: c.maxGradNorm,
    clipLow: c.clipLow, clipHigh: c.clipHigh, dualClip: c.dualClip, entropyCoef: c.entropyCoef, klCoef: c.klCoef,
    aggregation: c.lossAggregation, temperature: c.temperature,
  };
}

function gateOptions(c: Config): GateOptions {
  return { atLeastOne: c.atLeastOne, maskZeroMode: c.maskZeroMode, hintMinLength: c.hintMinLength, wOpd: c.wOpd, wRl: c.wRl, normalizeStd: c.normalizeStd, dynamicSampling: c.dynamicSampling };
}

/** Poisson draw (Knuth) for small means. */
function poisson(mean: number, rng: Rng): number {
  if (mean <= 0) return 0;
  const L = Math.exp(-Math.min(mean, 500));
  let k = 0;
  let p = 1;
  do {
    k++;
    p *= rng.next();
  } while (p > L);
  return k - 1;
}

export class Run {
  readonly timeline: TimelineEntry[] = [];
  private pending: Partial<Config> = {};
  private stepIndex = 0;
  private readonly rng: RngStreams;
  /** Rollout weights, oldest first; the rollout uses [0], i.e. `staleness` syncs behind. */
  private rollout: WeightsHandle[] = [];
  private basePass: number[] = [];
  private lastMeasure: { scalars: Record<string, number>; passAtK: number[] } | null = null;
  private nextSession = 0;

  private constructor(
    readonly engine: PolicyEngine,
    private cfg: Config,
    /** The frozen base: OPD teacher, KL reference and pass@k baseline. */
    readonly base: WeightsHandle,
  ) {
    this.rng = makeStreams(cfg.seed);
  }

  /**
   * Start a run on an engine that holds the base (pretrained) weights: freezes them as the base,
   * runs the SFT-on-gold phase when configured, and measures the base pass@k.
   */
  static async create(engine: PolicyEngine, config: Config): Promise<Run> {
    const run = new Run(engine, config, engine.snapshot());
    run.timeline.push({ step: 0, patch: { ...config } });
    if (config.sftGoldSteps > 0) {
      await sftOnGold(engine, run.task, run.rng.init, { steps: config.sftGoldSteps, batch: config.sftBatch, lr: config.sftLr, temperature: config.temperature, weightDecay: 0, maxGradNorm: config.maxGradNorm });
      await engine.setWeights(await engine.getWeights()); // RL starts with a fresh optimizer
    }
    run.rollout.push(engine.snapshot());
    run.basePass = (await run.measure(run.base, run.rng.init)).passAtK;
    return run;
  }

  get config(): Config {
    return this.cfg;
  }

  /** Steps taken so far. */
  get stepCount(): number {
    return this.stepIndex;
  }

  get task(): Task {
    return TASKS[this.cfg.task];
  }

  /** Validate a patch now (throws ConfigError naming the field); it applies at the next step. */
  setConfig(patch: Partial<Config>): void {
    if ('seed' in patch || 'task' in patch) throw new Error('Run.setConfig: seed and task are fixed for a run; start a new run');
    applyPatch({ ...this.cfg, ...this.pending }, patch);
    this.pending = { ...this.pending, ...patch };
  }

  private async measure(weights: WeightsHandle | undefined, rng: Rng) {
    const c = this.cfg;
    const states = this.task.states.flatMap((_, s) => new Array<number>(c.behaviorSamples).fill(s));
    const gen = await generate(this.engine, this.task, states, c.temperature, rng, weights);
    return measureBehavior(this.task, gen, states, c.feasibilityEps, c.tokenEps, Math.min(64, c.behaviorSamples));
  }

  private sessionsPerRound(): number {
    const c = this.cfg;
    const turns = this.task.name === 'strategies' ? 1 : c.sessionTurns;
    const n = Math.max(1, Math.ceil(c.rolloutBatch / turns));
    return isGrouped(c.method) ? Math.ceil(n / c.groupSize) * c.groupSize : n;
  }

  /** One training step; returns its metrics frame. */
  async step(): Promise<MetricsFrame> {
    const t0 = performance.now();
    const versionBefore = this.engine.version;
    const changes = this.pending;
    if (Object.keys(changes).length) {
      this.cfg = applyPatch(this.cfg, changes);
      this.timeline.push({ step: this.stepIndex, patch: changes });
      this.pending = {};
    }
    const c = this.cfg;
    const task = this.task;
    const method = METHODS[c.method];
    const gopts = gateOptions(c);
    const grouped = isGrouped(c.method);
    const rolloutWeights = this.rollout[0];
    const scalars: Record<string, number> = {};

    // ---- serve → judge → gate → queue (with the 503 pause window) -------------------------------
    const queue: Queued[] = [];
    const served: JudgedTurn[] = [];
    const traced: Queued[] = [];
    let requests503 = 0;
    let lost503 = 0;
    let dropped = 0;
    let promoted = 0;
    let esrNum = 0;
    let esrDen = 0;
    const counts: Record<string, number> = {};
    for (let round = 0; round < c.serveRoundsMax && queue.length < c.rolloutBatch; round++) {
      let sessions = this.sessionsPerRound();
      // requests that arrive during the weight-sync pause get 503: retried after it, or lost
      const unit = grouped ? c.groupSize : 1;
      let lostUnits = 0;
      for (let u = 0; u < sessions / unit; u++) {
        if (this.rng.requests.next() < c.pauseWindow) {
          requests503 += unit;
          if (!c.retry503) lostUnits++;
        }
      }
      lost503 += lostUnits * unit;
      sessions -= lostUnits * unit;
      if (sessions <= 0) continue;
      const turns = await serveSessions(this.engine, task, sessions, grouped ? c.groupSize : 1, this.nextSession,
        { temperature: c.temperature, turns: c.sessionTurns, judgeVotes: c.judgeVotes, judgeNoise: c.judgeNoise, hintVotes: c.hintVotes }, this.rng, rolloutWeights);
      this.nextSession += sessions;
      if (task.longHorizon) {
        const r = creditRewards(turns, { gamma: c.gamma, prmStepCoef: c.prmStepCoef, stepwiseZ: c.stepwiseZ });
        turns.forEach((t, i) => (t.reward = r[i]));
      }
      const res = method(turns, gopts);
      served.push(...turns);
      esrNum += res.esr * (c.method === 'opd' || c.method === 'combine' ? turns.length : res.decisions.filter((d) => d.queued).length);
      esrDen += c.method === 'opd' || c.method === 'combine' ? turns.length : res.decisions.filter((d) => d.queued).length;
      for (const [k, v] of Object.entries(res.counts)) counts[k] = (counts[k] ?? 0) + v;
      res.decisions.forEach((d, i) => {
        const q = { turn: turns[i], decision: d };
        if (traced.length < TRACE_MAX) traced.push(q);
        if (d.reasons.includes('promoted-at-least-one')) promoted++;
        if (d.queued) queue.push(q);
        else dropped++;
      });
    }
    const overflow = Math.max(0, queue.length - c.rolloutBatch);
    const batchItems = queue.slice(0, c.rolloutBatch);
    const B = batchItems.length;

    // ---- π_old, teacher and reference log-probs --------------------------------------------------
    const tokens = new Int32Array(B * CONTEXT);
    batchItems.forEach((q, b) => tokens.set(q.turn.tokens, b * CONTEXT));
    const advantages = new Float32Array(B * T);
    const lossMask = new Float32Array(B * T);
    const responseMask = new Float32Array(B * T);
    let oldLogp: Float32Array = new Float32Array(B * T);
    let refLogp: Float32Array = new Float32Array(B * T);
    let gapSum = 0;
    let gapCount = 0;
    const advByItem: Float32Array[] = [];
    if (B > 0) {
      const recomputed = (await this.engine.score({ batch: B, tokens, temperature: c.temperature })).logp;
      const rolloutLogp = new Float32Array(B * T);
      batchItems.forEach((q, b) => rolloutLogp.set(q.turn.rolloutLogp, b * T));
      oldLogp = c.piOldSource === 'recompute' ? recomputed : rolloutLogp;
      const teacherRows = batchItems.flatMap((q, b) => (q.decision.opdWeight !== 0 && q.decision.hint ? [b] : []));
      const teacher = new Float32Array(B * T);
      if (teacherRows.length) {
        const tt = new Int32Array(teacherRows.length * CONTEXT);
        teacherRows.forEach((b, i) => {
          tt.set(batchItems[b].turn.tokens, i * CONTEXT);
          tt[i * CONTEXT + HINT_SLOT] = task.behaviors[batchItems[b].decision.hint!.behavior].hint;
        });
        const tl = (await this.engine.score({ batch: teacherRows.length, tokens: tt, temperature: c.temperature, weights: this.base })).logp;
        teacherRows.forEach((b, i) => teacher.set(tl.subarray(i * T, (i + 1) * T), b * T));
      }
      if (c.klCoef > 0) refLogp = (await this.engine.score({ batch: B, tokens, temperature: c.temperature, weights: this.base })).logp;
      batchItems.forEach((q, b) => {
        const row = sampleRow(q.turn, q.decision, oldLogp.subarray(b * T, (b + 1) * T), teacher.subarray(b * T, (b + 1) * T), c.opdAdvClamp);
        advantages.set(row.advantages, b * T);
        lossMask.set(row.lossMask, b * T);
        advByItem.push(row.advantages);
        for (let t = PROMPT_LENGTH - 1; t < PROMPT_LENGTH - 1 + q.turn.responseLength; t++) {
          responseMask[b * T + t] = 1;
          gapSum += Math.abs(rolloutLogp[b * T + t] - recomputed[b * T + t]);
          gapCount++;
        }
      });
    }

    // ---- train: K passes × minibatches ---------------------------------------------------------
    const hyper = ppoHyper(c);
    const trainMetrics: TrainMetrics[] = [];
    const hist = new Array<number>(RATIO_EDGES.length + 1).fill(0);
    if (B > 0) {
      const mb = Math.min(c.minibatches, B);
      for (let k = 0; k < c.updatesPerRollout; k++) {
        for (let m = 0; m < mb; m++) {
          const lo = Math.floor((m * B) / mb);
          const hi = Math.floor(((m + 1) * B) / mb);
          const sl = (a: Float32Array) => a.slice(lo * T, hi * T);
          const tm = await this.engine.trainStep(
            { batch: hi - lo, tokens: tokens.slice(lo * CONTEXT, hi * CONTEXT), advantages: sl(advantages), oldLogp: sl(oldLogp), refLogp: sl(refLogp), lossMask: sl(lossMask) },
            hyper,
          );
          trainMetrics.push(tm);
          ratioHistogram(tm.ratio, sl(lossMask)).forEach((x, i) => (hist[i] += x));
        }
      }
    }

    // ---- sync: the rollout copy advances; keep `staleness` older copies ----------------------------
    this.rollout.push(this.engine.snapshot());
    while (this.rollout.length > c.staleness + 1) this.engine.release(this.rollout.shift()!);
    requests503 += [...Array(poisson(c.requestRate, this.rng.requests))].filter(() => this.rng.requests.next() < c.pauseWindow).length;

    // ---- measure ---------------------------------------------------------------------------------
    this.stepIndex++;
    if (this.lastMeasure === null || (this.stepIndex - 1) % c.measureEvery === 0) this.lastMeasure = await this.measure(undefined, this.rng.measure);
    Object.assign(scalars, this.lastMeasure.scalars);
    const mean = (f: (m: TrainMetrics) => number) => (trainMetrics.length ? trainMetrics.reduce((a, m) => a + f(m), 0) / trainMetrics.length : 0);
    const rs = rewardStats(served, grouped);
    let maskedTokens = 0;
    let responseTokens = 0;
    let advAbs = 0;
    for (let i = 0; i < responseMask.length; i++) {
      responseTokens += responseMask[i];
      if (responseMask[i] && !lossMask[i]) maskedTokens++;
      if (lossMask[i]) advAbs += Math.abs(advantages[i]);
    }
    const active = lossMask.reduce((a, x) => a + x, 0);
    const judged = served.filter((t) => t.hasNext);
    Object.assign(scalars, {
      'grad/reward_var': rs.rewardVar,
      'grad/zero_std_frac': rs.zeroStdFrac,
      'grad/norm': mean((m) => m.gradNorm),
      'grad/adv_abs_mean': active ? advAbs / active : 0,
      'gap/clipfrac_low': mean((m) => m.clipfracLow),
      'gap/clipfrac_high': mean((m) => m.clipfracHigh),
      'gap/ppo_kl': mean((m) => m.ppoKl),
      'gap/rollout_logprob_abs_diff': gapCount ? gapSum / gapCount : 0,
      'gap/requests_503': requests503,
      'gap/lost_503': lost503,
      'gap/staleness': versionBefore - rolloutWeights.version,
      'esr/effective_rate': esrDen ? esrNum / esrDen : 0,
      'esr/hint_accept_rate': judged.length ? judged.filter((t) => chooseHint(t.hintVotes, c.hintMinLength)).length / judged.length : 0,
      'esr/served': served.length,
      'esr/queued': B,
      'esr/masked': batchItems.filter((q) => q.decision.lossMask === 0).length,
      'esr/dropped': dropped,
      'esr/promoted': promoted,
      'esr/overflow': overflow,
      'esr/mask0_compute_share': responseTokens ? maskedTokens / responseTokens : 0,
      'train/loss': mean((m) => m.loss),
      'train/pg_loss': mean((m) => m.pgLoss),
      'train/entropy': mean((m) => m.entropy),
      'train/updates': trainMetrics.length,
    });
    for (const [k, v] of Object.entries(counts)) scalars[`esr/${k}`] = v;
    const dt = (performance.now() - t0) / 1000;
    const itemIndex = new Map(batchItems.map((q, i) => [q, i]));
    const trace: SampleTrace[] = traced.map((q) => {
      const i = itemIndex.get(q);
      return traceOf(task, q.turn, q.decision, i === undefined ? null : advByItem[i]);
    });
    return {
      step: this.stepIndex,
      version: this.engine.version,
      scalars,
      series: { 'support/pass_at_k': this.lastMeasure.passAtK, 'support/pass_at_k_base': this.basePass, 'gap/ratio_hist': hist },
      ratioEdges: RATIO_EDGES,
      perf: { 'perf/steps_per_s': dt > 0 ? 1 / dt : 0, 'perf/tokens_per_s': dt > 0 ? (responseTokens * c.updatesPerRollout) / dt : 0 },
      changes,
      trace,
    };
  }

  /** Release the engine handles this run holds (not the engine itself). */
  dispose(): void {
    for (const h of this.rollout) this.engine.release(h);
    this.rollout = [];
    this.engine.release(this.base);
  }
}
