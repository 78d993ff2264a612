// The training loop against PolicyEngine: serve → judge → gate → queue → train → sync → measure.
// One Run per experiment; step() returns one metrics frame; setConfig() takes effect at the next
// step and is recorded on the timeline. Deterministic from the seed (RNG streams in rng.ts).
import { buildTrainBatch, sliceBatch, type BuiltBatch, type Queued } from './batch';
import { runFixingIn, type Config } from './config';
import type { EngineState, PolicyEngine, PpoHyper, TrainMetrics, WeightsHandle } from './engine';
import { gateOf } from './gates/builtin';
import { decideInOrder, ruleName } from './gates/gate';
import { loopJudgingOrder, sampleRecords, type SampleRecord } from './gates/sample';
import { responseRange, T } from './credit/advantage';
import { creditRewards } from './credit/credit';
import type { JudgedTurn } from './credit/types';
import type { ScalarsWith } from './measure/names';
import { RATIO_EDGES, measureBehavior, ratioHistogram, stepScalars, traceOf, type BehaviorMeasure, type TrainedFrame } from './metrics';
import { sftOnGold } from './pretrain';
import { makeStreams, streamPositions, streamsAt, type Rng, type RngStreams } from './rng';
import { generate, serveSessions } from './serve';
import { taskOf } from './tasks/registry';
import type { Task } from './tasks/types';
import { CONTEXT } from './tasks/vocab';

export interface TimelineEntry {
  step: number;
  patch: Partial<Config>;
}

const TRACE_MAX = 64;

/**
 * A run between two steps, exactly: settings, timeline, every RNG stream's position, the loop's
 * counters and the engine's state (trainer, optimizer moments, frozen base, rollout copies).
 * `Run.resume` continues it so that every later frame equals the uninterrupted run's.
 */
export interface RunSnapshot {
  version: 1;
  stepIndex: number;
  config: Config;
  /** Patches set but not applied yet (they apply at the next step). */
  pending: Partial<Config>;
  timeline: TimelineEntry[];
  rng: Record<keyof RngStreams, number>;
  nextSession: number;
  basePass: number[];
  baseScalars: ScalarsWith;
  lastMeasure: BehaviorMeasure | null;
  /** handles: [frozen base, rollout copies oldest first]. */
  engine: EngineState;
}

export function ppoHyper(c: Config): PpoHyper {
  return {
    lr: c.lr, beta1: c.beta1, beta2: c.beta2, eps: c.adamEps, weightDecay: c.weightDecay, maxGradNorm: c.maxGradNorm,
    clipLow: c.clipLow, clipHigh: c.clipHigh, dualClip: c.dualClip, entropyCoef: c.entropyCoef, klCoef: c.klCoef,
    aggregation: c.lossAggregation, temperature: c.temperature,
  };
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

/** What one step's serving produced. */
interface Collected {
  queue: Queued[];
  served: JudgedTurn[];
  traced: Queued[];
  requests503: number;
  lost503: number;
  dropped: number;
  /** Samples decided by each rule (last: none matched). */
  ruleCounts: number[];
}

export class Run {
  readonly timeline: TimelineEntry[] = [];
  private pending: Partial<Config> = {};
  private stepIndex = 0;
  private readonly rng: RngStreams;
  /** Rollout weights, oldest first; the rollout uses [0], i.e. `staleness` syncs behind. */
  private rollout: WeightsHandle[] = [];
  private basePass: number[] = [];
  /** Behavior measurement of the frozen base, before any SFT or RL step (the plots' step-0 point). */
  baseScalars: ScalarsWith = {};
  private lastMeasure: BehaviorMeasure | null = null;
  private nextSession = 0;

  private constructor(
    readonly engine: PolicyEngine,
    private cfg: Config,
    /** The frozen base: OPD teacher, KL reference and pass@k baseline. */
    readonly base: WeightsHandle,
    rng?: RngStreams,
  ) {
    this.rng = rng ?? makeStreams(cfg.seed);
  }

  /** This run, exactly, between two steps (see RunSnapshot); throws where the engine cannot export. */
  async exportState(): Promise<RunSnapshot> {
    if (!this.engine.exportState) throw new Error(`the ${this.engine.backend} engine cannot export its training state`);
    const clone = <T>(x: T): T => structuredClone(x);
    return {
      version: 1, stepIndex: this.stepIndex, config: clone(this.cfg), pending: clone(this.pending), timeline: clone(this.timeline),
      rng: streamPositions(this.rng), nextSession: this.nextSession, basePass: [...this.basePass], baseScalars: { ...this.baseScalars },
      lastMeasure: clone(this.lastMeasure), engine: await this.engine.exportState([this.base, ...this.rollout]),
    };
  }

  /** Continue a run from `exportState` on an engine of the same kind and shape (no SFT, no base measurement: both are in it). */
  static async resume(engine: PolicyEngine, snap: RunSnapshot): Promise<Run> {
    if (snap.version !== 1) throw new Error(`run snapshot version ${String(snap.version)} is not supported`);
    if (!engine.importState) throw new Error(`the ${engine.backend} engine cannot import a training state`);
    const handles = await engine.importState(snap.engine);
    if (handles.length < 2) throw new Error('run snapshot: no frozen base or rollout weights in its engine state');
    const run = new Run(engine, structuredClone(snap.config), handles[0], streamsAt(snap.rng));
    run.rollout = handles.slice(1);
    run.stepIndex = snap.stepIndex;
    run.pending = structuredClone(snap.pending);
    run.timeline.push(...structuredClone(snap.timeline));
    run.nextSession = snap.nextSession;
    run.basePass = [...snap.basePass];
    run.baseScalars = { ...snap.baseScalars };
    run.lastMeasure = structuredClone(snap.lastMeasure);
    return run;
  }

  /**
   * Start a run on an engine that holds the base (pretrained) weights: freezes them as the base,
   * runs the SFT-on-gold phase when configured, and measures the base pass@k. `base`: the frozen
   * base when the engine holds other weights to train on (a run continued from a fork point).
   */
  static async create(engine: PolicyEngine, config: Config, opts: { onSftStep?: (step: number, loss: number) => void; base?: WeightsHandle } = {}): Promise<Run> {
    const run = new Run(engine, config, opts.base ?? engine.snapshot());
    run.timeline.push({ step: 0, patch: { ...config } });
    if (config.sftGoldSteps > 0) {
      await sftOnGold(engine, run.task, run.rng.init, { steps: config.sftGoldSteps, batch: config.sftBatch, lr: config.sftLr, temperature: config.temperature, weightDecay: 0, maxGradNorm: config.maxGradNorm, onStep: opts.onSftStep });
      await engine.setWeights(await engine.getWeights()); // RL starts with a fresh optimizer
    }
    run.rollout.push(engine.snapshot());
    const base = await run.measure(run.base, run.rng.init);
    run.basePass = base.passAtK;
    run.baseScalars = base.scalars;
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
    return taskOf(this.cfg);
  }

  /**
   * A patch for the next step. It is a typed value, checked where it came in (RunSession.setConfig,
   * replay.ts: applyPatch), not checked again here; a run-fixing key is a caller's mistake.
   */
  setConfig(patch: Partial<Config>): void {
    const fixed = runFixingIn(patch);
    if (fixed.length) throw new Error(`Run.setConfig: ${fixed.join(', ')} fix the run; start a new run`);
    this.pending = { ...this.pending, ...patch };
  }

  /** One training step; returns its metrics frame. */
  async step(): Promise<TrainedFrame> {
    const t0 = performance.now();
    const changes = this.applyPending();
    const c = this.cfg;
    const versionBefore = this.engine.version;
    const rolloutWeights = this.rollout[0];

    const col = await this.collect(rolloutWeights);
    const items = col.queue.slice(0, c.rolloutBatch);
    const built = items.length ? await buildTrainBatch(this.engine, this.task, items, c, this.base) : null;
    const { metrics, hist } = built ? await this.train(built) : { metrics: [], hist: new Array<number>(RATIO_EDGES.length + 1).fill(0) };
    this.sync();
    col.requests503 += this.backgroundRequests503();

    this.stepIndex++;
    if (this.lastMeasure === null || this.stepIndex % c.measureEvery === 0) this.lastMeasure = await this.measure(undefined, this.rng.measure);
    const scalars = {
      ...this.lastMeasure.scalars,
      ...stepScalars({
        served: col.served, queue: col.queue, trained: items.length, dropped: col.dropped, requests503: col.requests503, lost503: col.lost503,
        staleness: versionBefore - rolloutWeights.version, grouped: gateOf(c).grouped, hintMinLength: c.hintMinLength, built, train: metrics,
      }),
    };

    const dt = (performance.now() - t0) / 1000;
    const responseTokens = built ? built.responseMask.reduce((a, x) => a + x, 0) : 0;
    const row = new Map(items.map((q, i) => [q, i]));
    return {
      step: this.stepIndex,
      version: this.engine.version,
      scalars,
      series: { 'support/pass_at_k': this.lastMeasure.passAtK, 'support/pass_at_k_base': this.basePass, 'gap/ratio_hist': hist, 'gate/rule_counts': col.ruleCounts },
      ratioEdges: RATIO_EDGES,
      perf: { 'perf/steps_per_s': dt > 0 ? 1 / dt : 0, 'perf/tokens_per_s': dt > 0 ? (responseTokens * c.updatesPerRollout) / dt : 0 },
      changes,
      trace: col.traced.map((q) => {
        const i = row.get(q);
        return traceOf(this.task, q.turn, q.decision, i === undefined || !built ? null : built.rowAdvantages[i], ruleName(gateOf(c), q.decision.rule), q.fields);
      }),
    };
  }

  /** Release the engine handles this run holds (not the engine itself). */
  dispose(): void {
    for (const h of this.rollout) this.engine.release(h);
    this.rollout = [];
    this.engine.release(this.base);
  }

  private applyPending(): Partial<Config> {
    const changes = this.pending;
    if (Object.keys(changes).length) {
      this.cfg = { ...this.cfg, ...changes }; // checked once, where the patch came in (RunSession.setConfig, replay.ts)
      this.timeline.push({ step: this.stepIndex, patch: changes });
      this.pending = {};
    }
    return changes;
  }

  /** Sessions for the next serve round: enough turns to fill what the queue still lacks. */
  private sessionsPerRound(missing: number): number {
    const c = this.cfg;
    const turns = this.task.kind === 'single-turn' ? 1 : c.sessionTurns;
    const n = Math.max(1, Math.ceil(missing / turns));
    return gateOf(c).grouped ? Math.ceil(n / c.groupSize) * c.groupSize : n;
  }

  /** serve → judge → gate → queue, in rounds until the queue holds a batch (or rounds run out). */
  private async collect(weights: WeightsHandle): Promise<Collected> {
    const c = this.cfg;
    const task = this.task;
    const gate = gateOf(c);
    const unit = gate.grouped ? c.groupSize : 1;
    const col: Collected = { queue: [], served: [], traced: [], requests503: 0, lost503: 0, dropped: 0, ruleCounts: new Array<number>(gate.rules.length + 1).fill(0) };
    for (let round = 0; round < c.serveRoundsMax && col.queue.length < c.rolloutBatch; round++) {
      // requests (sessions, or whole groups) arriving during the weight-sync pause get 503:
      // retried after the pause, or lost
      let sessions = this.sessionsPerRound(c.rolloutBatch - col.queue.length);
      let lost = 0;
      for (let u = 0; u < sessions / unit; u++) {
        if (this.rng.requests.next() >= c.pauseWindow) continue;
        col.requests503 += unit;
        if (!c.retry503) lost += unit;
      }
      col.lost503 += lost;
      sessions -= lost;
      if (sessions <= 0) continue;
      const turns = await serveSessions(this.engine, task, sessions, unit, this.nextSession,
        { temperature: c.temperature, focusState: c.focusState, turns: c.sessionTurns, judgeVotes: c.judgeVotes, judgeNoise: c.judgeNoise, hintVotes: c.hintVotes }, this.rng, weights);
      this.nextSession += sessions;
      if (task.longHorizon) {
        const r = creditRewards(turns, { gamma: c.gamma, prmStepCoef: c.prmStepCoef, stepwiseZ: c.stepwiseZ });
        turns.forEach((t, i) => (t.reward = r[i]));
      }
      // gate: a pure function of each sample's fields
      const gap = gate.reads.has('rollout_logp_gap') ? await this.rolloutGaps(turns) : null;
      const fields = sampleRecords(turns, { hintMinLength: c.hintMinLength, staleness: this.engine.version - weights.version, stateName: (s) => task.states[s].name, gap });
      col.served.push(...turns);
      // in judging order (the loop's: turn order within each session), as OpenClaw submits turns
      const decided = decideInOrder(gate, fields, loopJudgingOrder(turns));
      decided.decisions.forEach((decision, i) => {
        const q = { turn: turns[i], decision, fields: decided.records[i] as SampleRecord };
        col.ruleCounts[decision.rule]++;
        if (col.traced.length < TRACE_MAX) col.traced.push(q);
        if (decision.queued) col.queue.push(q);
        else col.dropped++;
      });
    }
    return col;
  }

  /** K passes × minibatches of PPO updates; ratio histogram over masked tokens. */
  private async train(built: BuiltBatch): Promise<{ metrics: TrainMetrics[]; hist: number[] }> {
    const c = this.cfg;
    const hyper = ppoHyper(c);
    const B = built.batch.batch;
    const mb = Math.min(c.minibatches, B);
    const metrics: TrainMetrics[] = [];
    const hist = new Array<number>(RATIO_EDGES.length + 1).fill(0);
    for (let k = 0; k < c.updatesPerRollout; k++) {
      for (let m = 0; m < mb; m++) {
        const part = sliceBatch(built.batch, Math.floor((m * B) / mb), Math.floor(((m + 1) * B) / mb));
        const tm = await this.engine.trainStep(part, hyper);
        metrics.push(tm);
        ratioHistogram(tm.ratio, part.lossMask).forEach((x, i) => (hist[i] += x));
      }
    }
    return { metrics, hist };
  }

  /** The rollout copy advances; keep `staleness` older copies alive. */
  private sync(): void {
    this.rollout.push(this.engine.snapshot());
    while (this.rollout.length > this.cfg.staleness + 1) this.engine.release(this.rollout.shift()!);
  }

  /** Extra user traffic: requests per step, each inside the pause window with its probability. */
  private backgroundRequests503(): number {
    const n = poisson(this.cfg.requestRate, this.rng.requests);
    let hits = 0;
    for (let i = 0; i < n; i++) if (this.rng.requests.next() < this.cfg.pauseWindow) hits++;
    return hits;
  }

  private async measure(weights: WeightsHandle | undefined, rng: Rng): Promise<BehaviorMeasure> {
    const c = this.cfg;
    const states = this.task.states.flatMap((_, s) => new Array<number>(c.behaviorSamples).fill(s));
    const gen = await generate(this.engine, this.task, states, c.temperature, rng, weights);
    return measureBehavior(this.task, gen, states, c.feasibilityEps, c.tokenEps, Math.min(64, c.behaviorSamples));
  }

  /** Per turn: mean |logπ_rollout − logπ_trainer| over its response (for gates that read rollout_logp_gap). */
  private async rolloutGaps(turns: readonly JudgedTurn[]): Promise<number[]> {
    const B = turns.length;
    const tokens = new Int32Array(B * CONTEXT);
    turns.forEach((t, b) => tokens.set(t.tokens, b * CONTEXT));
    const now = (await this.engine.score({ batch: B, tokens, temperature: this.cfg.temperature })).logp;
    return turns.map((t, b) => {
      const [lo, hi] = responseRange(t);
      let sum = 0;
      for (let i = lo; i < hi; i++) sum += Math.abs(t.rolloutLogp[i] - now[b * T + i]);
      return hi > lo ? sum / (hi - lo) : 0;
    });
  }
}
