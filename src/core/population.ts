// A population of P independent policies run by ONE engine: every call takes one request per
// member (null = the member sits this call out) and runs them together — one graph run per phase
// for all P members on the ORT engine. `Population` turns it into P ordinary PolicyEngines, so the
// unchanged core loop (Run) drives each member: calls the members make at the same time are
// gathered into one population call, and batches of different sizes are padded (rows with loss
// mask 0, which change neither a member's loss normalization nor its gradient).
import type {
  OptimizerHyper, PolicyEngine, PolicyShape, PpoHyper, SampleRequest, SampleResult, ScoreRequest, ScoreResult,
  SftBatch, SftMetrics, TrainBatch, TrainMetrics, WeightsHandle,
} from './engine';

export type SftHyper = OptimizerHyper & { temperature: number };

/**
 * P policies behind one engine. In every batched call the non-null requests have the same `batch`
 * (Population pads them); each member's rows are computed with that member's weights only.
 */
export interface PopulationEngine {
  readonly size: number;
  readonly shape: PolicyShape;
  readonly backend: string;
  readonly backendNote: string;
  sample(reqs: readonly (SampleRequest | null)[]): Promise<(SampleResult | null)[]>;
  score(reqs: readonly (ScoreRequest | null)[]): Promise<(ScoreResult | null)[]>;
  /** One optimizer step for each non-null member (the others keep weights, moments and version). */
  trainStep(reqs: readonly ({ batch: TrainBatch; hyper: PpoHyper } | null)[]): Promise<(TrainMetrics | null)[]>;
  sftStep(reqs: readonly ({ batch: SftBatch; hyper: SftHyper } | null)[]): Promise<(SftMetrics | null)[]>;
  getWeights(member: number): Promise<Float32Array>;
  /** Replace the weights of the non-null members and reset their optimizer state and version. */
  setWeights(weights: readonly (Float32Array | null)[]): Promise<void>;
  snapshot(member: number): WeightsHandle;
  release(handle: WeightsHandle): void;
  version(member: number): number;
  dispose(): Promise<void>;
  /** Resolves (with the reason) when the device is gone for good (see PolicyEngine.lost). */
  readonly lost?: Promise<string>;
}

type Kind = 'setWeights' | 'getWeights' | 'sft' | 'train' | 'score' | 'sample';
/** Order in which kinds queued together run (any order is correct: members only touch their own row). */
const KINDS: Kind[] = ['setWeights', 'getWeights', 'sft', 'train', 'score', 'sample'];

interface Pending {
  member: number;
  kind: Kind;
  req: unknown;
  resolve: (x: unknown) => void;
  reject: (e: unknown) => void;
}

/** Rows [0, B) of a row-major array of `width` values per row, followed by `pad` rows from `fill`. */
function padRows<A extends Int32Array | Float32Array>(a: A, width: number, rows: number, fill: (row: A) => void): A {
  const B = a.length / width;
  if (B === rows) return a;
  const out = new (a.constructor as { new (n: number): A })(rows * width);
  out.set(a);
  for (let b = B; b < rows; b++) fill(out.subarray(b * width, (b + 1) * width) as A);
  return out;
}
const zeros = () => {};
/** Rows of a queued request (0 for the weight calls). */
function rowsOf(q: Pending): number {
  const r = q.req as { batch?: number | { batch: number } };
  return typeof r.batch === 'number' ? r.batch : (r.batch?.batch ?? 0);
}
const cut = <A extends Int32Array | Float32Array>(a: A, rows: number, width: number) => (a.length === rows * width ? a : (a.slice(0, rows * width) as A));

/** Pad a member's request to `rows` rows (extra rows are duplicates of row 0 / PAD with loss mask 0). */
function padSample(r: SampleRequest, rows: number, C: number): SampleRequest {
  const n = r.newTokens;
  return {
    ...r, batch: rows,
    prompt: padRows(r.prompt, C, rows, (row) => row.set(r.prompt.subarray(0, C))),
    promptLength: padRows(r.promptLength, 1, rows, (row) => (row[0] = r.promptLength[0])),
    uniforms: padRows(r.uniforms, n, rows, (row) => row.set(r.uniforms.subarray(0, n))),
  };
}

function padTokens<R extends { batch: number; tokens: Int32Array }>(r: R, rows: number, C: number, perToken: (keyof R)[]): R {
  const out = { ...r, batch: rows, tokens: padRows(r.tokens, C, rows, zeros) };
  for (const k of perToken) (out[k] as Float32Array) = padRows(r[k] as Float32Array, C - 1, rows, zeros);
  return out;
}

/**
 * P member engines over one PopulationEngine. Outside `together` every call runs at once (alone);
 * inside `together`, the members' calls wait until every member still running has one queued,
 * then each kind runs as ONE population call.
 */
export class Population {
  readonly members: PolicyEngine[];
  private queue: Pending[] = [];
  private flushing = false;
  private active = 0;
  private grouped: boolean[];

  constructor(readonly engine: PopulationEngine) {
    this.grouped = new Array<boolean>(engine.size).fill(false);
    this.members = Array.from({ length: engine.size }, (_, p) => this.memberEngine(p));
  }

  get size(): number {
    return this.engine.size;
  }

  /**
   * Run one task per member concurrently (members without a task sit out); engine calls made at the
   * same time are batched. Rejects with the first failure after every task has settled.
   */
  async together<T>(tasks: readonly (((engine: PolicyEngine, member: number) => Promise<T>) | null)[]): Promise<(T | undefined)[]> {
    if (this.active) throw new Error('Population.together: already inside together()');
    const used = tasks.flatMap((t, p) => (t ? [p] : []));
    used.forEach((p) => (this.grouped[p] = true));
    this.active = used.length;
    const settled = await Promise.allSettled(tasks.map(async (t, p) => {
      if (!t) return undefined;
      try {
        return await t(this.members[p], p);
      } finally {
        this.grouped[p] = false;
        this.active--;
        this.maybeFlush();
      }
    }));
    const failed = settled.find((s) => s.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    return settled.map((s) => (s as PromiseFulfilledResult<T | undefined>).value);
  }

  private call<R>(member: number, kind: Kind, req: unknown): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ member, kind, req, resolve: resolve as (x: unknown) => void, reject });
      this.maybeFlush();
    });
  }

  private maybeFlush(): void {
    if (this.flushing || !this.queue.length) return;
    const eager = this.queue.some((q) => !this.grouped[q.member]);
    if (!eager && this.queue.length < this.active) return;
    void this.flush();
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    const batch = this.queue;
    this.queue = [];
    const settle: (() => void)[] = [];
    for (const kind of KINDS) {
      const items = batch.filter((q) => q.kind === kind);
      if (!items.length) continue;
      try {
        const results = await this.run(kind, items);
        items.forEach((q, i) => settle.push(() => q.resolve(results[i])));
      } catch (e) {
        items.forEach((q) => settle.push(() => q.reject(e)));
      }
    }
    this.flushing = false;
    settle.forEach((f) => f());
    this.maybeFlush();
  }

  /** One population call for the queued requests of one kind (at most one per member). */
  private async run(kind: Kind, items: Pending[]): Promise<unknown[]> {
    const P = this.size;
    const C = this.engine.shape.context;
    const slots = <T>(f: (q: Pending) => T): (T | null)[] => {
      const out = new Array<T | null>(P).fill(null);
      for (const q of items) {
        if (out[q.member] !== null) throw new Error(`Population: member ${q.member} made two concurrent calls`);
        out[q.member] = f(q);
      }
      return out;
    };
    const rows = Math.max(...items.map((q) => rowsOf(q)));
    const byMember = <T>(res: (T | null)[]) => items.map((q) => res[q.member]);
    switch (kind) {
      case 'getWeights':
        return Promise.all(items.map((q) => this.engine.getWeights(q.member)));
      case 'setWeights':
        await this.engine.setWeights(slots((q) => q.req as Float32Array));
        return items.map(() => undefined);
      case 'sample': {
        const res = await this.engine.sample(slots((q) => padSample(q.req as SampleRequest, rows, C)));
        return items.map((q, i) => {
          const B = (q.req as SampleRequest).batch;
          const r = byMember(res)[i]!;
          return { tokens: cut(r.tokens, B, C), logp: cut(r.logp, B, C - 1), entropy: cut(r.entropy, B, C - 1) };
        });
      }
      case 'score': {
        const res = await this.engine.score(slots((q) => padTokens(q.req as ScoreRequest, rows, C, [])));
        return items.map((q, i) => {
          const B = (q.req as ScoreRequest).batch;
          const r = byMember(res)[i]!;
          return { logp: cut(r.logp, B, C - 1), entropy: cut(r.entropy, B, C - 1) };
        });
      }
      case 'train': {
        const res = await this.engine.trainStep(slots((q) => {
          const r = q.req as { batch: TrainBatch; hyper: PpoHyper };
          return { hyper: r.hyper, batch: padTokens(r.batch, rows, C, ['advantages', 'oldLogp', 'refLogp', 'lossMask']) };
        }));
        return items.map((q, i) => {
          const r = byMember(res)[i]!;
          return { ...r, ratio: cut(r.ratio, (q.req as { batch: TrainBatch }).batch.batch, C - 1) };
        });
      }
      case 'sft': {
        const res = await this.engine.sftStep(slots((q) => {
          const r = q.req as { batch: SftBatch; hyper: SftHyper };
          return { hyper: r.hyper, batch: padTokens(r.batch, rows, C, ['lossMask']) };
        }));
        return byMember(res);
      }
    }
  }

  private memberEngine(p: number): PolicyEngine {
    const pop = this.engine;
    const call = <R>(kind: Kind, req: unknown) => this.call<R>(p, kind, req);
    return {
      shape: pop.shape,
      backend: pop.backend,
      backendNote: pop.backendNote,
      get version() {
        return pop.version(p);
      },
      sample: (req) => call('sample', req),
      score: (req) => call('score', req),
      trainStep: (batch, hyper) => call('train', { batch, hyper }),
      sftStep: (batch, hyper) => call('sft', { batch, hyper }),
      getWeights: () => call('getWeights', {}),
      setWeights: (w) => call('setWeights', w),
      lost: pop.lost,
      snapshot: () => pop.snapshot(p),
      release: (h) => pop.release(h),
      dispose: async () => {},
    };
  }
}
