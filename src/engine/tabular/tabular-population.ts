// A REFERENCE PopulationEngine: P tabular engines, one per member, each fed its member's
// (padded) requests. With it the ensemble plumbing (batching, padding, handles, per-member RNG)
// is checked bit for bit against single runs without onnxruntime.
import type { PolicyShape, WeightsHandle } from '../../core/engine';
import type { PopulationEngine } from '../../core/population';
import { TabularEngine, type TabularOptions } from './tabular-engine';

export class TabularPopulation implements PopulationEngine {
  readonly backend = 'tabular';
  readonly backendNote = 'P tabular reference engines (tests only)';
  readonly engines: TabularEngine[];
  private handles = new Map<number, { member: number; inner: WeightsHandle }>();
  private nextHandle = 1;
  /** Number of population calls per kind (tests check that a phase is one call). */
  readonly calls = { sample: 0, score: 0, train: 0, sft: 0 };

  constructor(
    readonly shape: PolicyShape,
    readonly size: number,
    opts?: TabularOptions,
  ) {
    this.engines = Array.from({ length: size }, () => new TabularEngine(shape, opts));
  }

  private each<Q, R>(reqs: readonly (Q | null)[], f: (e: TabularEngine, q: Q) => Promise<R>): Promise<(R | null)[]> {
    const rows = new Set(reqs.flatMap((r) => (r && typeof r === 'object' && 'batch' in r ? [batchOf(r)] : [])));
    if (rows.size > 1) throw new Error(`TabularPopulation: requests of one call must have one batch size, got ${[...rows]}`);
    return Promise.all(reqs.map((q, p) => (q === null ? null : f(this.engines[p], q))));
  }

  private inner(h?: WeightsHandle): WeightsHandle | undefined {
    if (!h) return undefined;
    const x = this.handles.get(h.id);
    if (!x) throw new Error(`tabular population: weights handle ${h.id} was released`);
    return x.inner;
  }

  sample: PopulationEngine['sample'] = (reqs) => {
    this.calls.sample++;
    return this.each(reqs, (e, r) => e.sample({ ...r, weights: this.inner(r.weights) }));
  };
  score: PopulationEngine['score'] = (reqs) => {
    this.calls.score++;
    return this.each(reqs, (e, r) => e.score({ ...r, weights: this.inner(r.weights) }));
  };
  trainStep: PopulationEngine['trainStep'] = (reqs) => {
    this.calls.train++;
    return this.each(reqs, (e, r) => e.trainStep(r.batch, r.hyper));
  };
  sftStep: PopulationEngine['sftStep'] = (reqs) => {
    this.calls.sft++;
    return this.each(reqs, (e, r) => e.sftStep(r.batch, r.hyper));
  };

  getWeights(member: number): Promise<Float32Array> {
    return this.engines[member].getWeights();
  }

  async setWeights(weights: readonly (Float32Array | null)[]): Promise<void> {
    await Promise.all(weights.map((w, p) => (w ? this.engines[p].setWeights(w) : null)));
  }

  snapshot(member: number): WeightsHandle {
    const inner = this.engines[member].snapshot();
    const id = this.nextHandle++;
    this.handles.set(id, { member, inner });
    return { id, version: inner.version };
  }

  release(h: WeightsHandle): void {
    const x = this.handles.get(h.id);
    if (!x) return;
    this.handles.delete(h.id);
    this.engines[x.member].release(x.inner);
  }

  version(member: number): number {
    return this.engines[member].version;
  }

  async dispose(): Promise<void> {
    await Promise.all(this.engines.map((e) => e.dispose()));
  }
}

function batchOf(r: object): number {
  const b = (r as { batch: number | { batch: number } }).batch;
  return typeof b === 'number' ? b : b.batch;
}
