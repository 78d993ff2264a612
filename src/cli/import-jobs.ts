// `npm run import -- --jobs N`: this thread reads, measures and clusters; it and N − 1 worker
// threads (import-features-worker.ts) make behavior discovery's features of each batch of samples,
// a share each, in order (src/core/import/measure/feature-batches.ts). The frames are those of one
// thread: the features are made by the same code, and clustering stays on this thread, in reading order.
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { BehaviorDiscoverer, type BehaviorFeatures, type ClusterParams, type FeatureInput, type FeatureJobs } from '../core/import/index';
import { parseWholeNumber } from '../core/config';
import type { FeaturesReply, FeaturesRequest } from './import-features-worker';
import { tsWorker } from './ts-worker';

const WORKER = new URL('./import-features-worker.ts', import.meta.url);
/** More jobs than this is a mistake (each is a thread with its own heap), not a wish. */
export const MAX_JOBS = 64;

export const JOBS_OPTIONS = { jobs: { type: 'string' } } as const;
export const JOBS_USAGE = '[--jobs N]';

/**
 * --jobs: a whole number 1..MAX_JOBS; absent: 1 (a worker thread costs about 40 MB and pays only
 * with a core to spare: docs/performance.md). A problem goes to `bad`.
 */
export function jobsFlag(value: string | undefined, bad: string[]): number {
  if (value === undefined) return 1;
  const n = parseWholeNumber(value);
  if (n === null || n < 1 || n > MAX_JOBS) {
    bad.push(`--jobs: expected a whole number from 1 to ${MAX_JOBS} (threads: this one and N − 1 workers; this machine has ${availableParallelism()} cores), got ${JSON.stringify(value)}`);
    return 1;
  }
  return n;
}

class FeatureWorker {
  private readonly thread: Worker;
  private waiting = new Map<number, { resolve: (f: BehaviorFeatures[]) => void; reject: (e: Error) => void }>();
  private nextId = 0;

  constructor(readonly index: number) {
    this.thread = tsWorker(WORKER);
    this.thread.on('message', (m: FeaturesReply) => {
      const w = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if (!w) return;
      if ('error' in m) w.reject(new Error(`import worker ${index}: ${m.error}`));
      else w.resolve(m.features);
    });
    this.thread.on('error', (e) => this.failAll(new Error(`import worker ${index}: ${e.message}`)));
    this.thread.on('exit', (code) => this.failAll(new Error(`import worker ${index} exited (code ${code})`)));
  }

  private failAll(e: Error): void {
    for (const w of this.waiting.values()) w.reject(e);
    this.waiting.clear();
  }

  features(samples: FeatureInput[], params: ClusterParams): Promise<BehaviorFeatures[]> {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.waiting.set(id, { resolve, reject });
      this.thread.postMessage({ id, params, samples } satisfies FeaturesRequest);
    });
  }

  close(): Promise<number> {
    this.thread.removeAllListeners('exit');
    return this.thread.terminate();
  }
}

/**
 * This thread's weight in a batch against a worker's: it also reads, parses and measures (a third of
 * its time on the discover-scale bench with one worker: 2.6 s of CPU beside the worker's 5.7 s).
 */
const OWN_WEIGHT = 1;
const WORKER_WEIGHT = 2;

/**
 * N − 1 worker threads and this one making features, a contiguous share of each batch each (the
 * workers started at the first batch: an import that discovers no behaviors starts none); `close`
 * ends them.
 */
export class ImportJobs implements FeatureJobs {
  private workers: FeatureWorker[] = [];
  private own: BehaviorDiscoverer | null = null;

  constructor(
    readonly jobs: number,
    /** Smaller batches than an import's (tests: many batches from a small run). */
    readonly batchChars?: number,
  ) {
    if (!(jobs >= 2)) throw new Error(`ImportJobs: ${jobs} jobs leave no worker thread (one job: no ImportJobs)`);
  }

  async features(samples: readonly FeatureInput[], params: ClusterParams): Promise<BehaviorFeatures[]> {
    if (!this.workers.length) this.workers = Array.from({ length: this.jobs - 1 }, (_, i) => new FeatureWorker(i + 1));
    if (this.own?.params !== params) this.own = new BehaviorDiscoverer([], params);
    // this thread's share first in the batch, then each worker's, in order
    const ownShare = Math.round((samples.length * OWN_WEIGHT) / (OWN_WEIGHT + WORKER_WEIGHT * this.workers.length));
    const share = Math.ceil((samples.length - ownShare) / this.workers.length);
    const parts = this.workers.map((w, i) => w.features(samples.slice(ownShare + i * share, ownShare + (i + 1) * share), params));
    const own = samples.slice(0, ownShare).map((s) => this.own!.features(s));
    return [...own, ...(await Promise.all(parts)).flat()];
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close()));
  }
}
