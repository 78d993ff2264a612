// A one-shot import on several threads (`npm run import -- --jobs N`, src/cli/import-jobs.ts): the
// behavior discovery features of the samples (discoverer.ts `features`: their terms as docs, the
// bulk of a step's work on long responses) are made by worker threads, batch by batch, while this
// thread reads the next batch; the samples then go to the measure in the order they were read,
// each with its features, so the clustering (serial) sees exactly what one thread gives it.
import type { ClusterParams } from '../discover/clusters';
import type { BehaviorFeatures } from '../discover/discoverer';
import type { ImportSource, ImportedSample } from '../types';

/** What a behavior's features are made from. */
export type FeatureInput = Pick<ImportedSample, 'prompt' | 'response' | 'toolCalls'>;

/** Makes the features of samples elsewhere, in their order. */
export interface FeatureJobs {
  features(samples: readonly FeatureInput[], params: ClusterParams): Promise<BehaviorFeatures[]>;
  /** A batch is sent once it holds this many characters of text (absent: BATCH_CHARS). */
  readonly batchChars?: number;
}

/**
 * Ten long responses a batch (a thousand short ones), two batches held at most: larger batches
 * grew both threads' heaps (4 MiB batches: 391 MB peak RSS on the discover-scale bench, 1 MiB:
 * 299 MB, 256 KiB: 266 MB; one thread: 193 MB), smaller ones gained nothing.
 */
export const BATCH_CHARS = 256 << 10;

export class FeatureBatches {
  private buffered: ImportedSample[] = [];
  private chars = 0;
  /** The batch sent before: added to the measure once its features are back (its rejection is awaited, never lost). */
  private inFlight: Promise<void> = Promise.resolve();

  constructor(
    private readonly jobs: FeatureJobs,
    private readonly params: ClusterParams,
    /** Where each sample goes, with its features, in the order read (measure.ts `add`). */
    private readonly add: (s: ImportedSample, f: BehaviorFeatures) => void,
  ) {}

  push(s: ImportedSample): void {
    this.buffered.push(s);
    this.chars += s.response.length + s.prompt.length;
  }

  /** A full batch is sent; the one before it is awaited and added (at most two batches held). */
  async next(force = false): Promise<void> {
    if (!force && this.chars < (this.jobs.batchChars ?? BATCH_CHARS)) return;
    const batch = this.buffered;
    this.buffered = [];
    this.chars = 0;
    const before = this.inFlight;
    const made = batch.length ? this.jobs.features(batch.map(({ prompt, response, toolCalls }) => ({ prompt, response, toolCalls })), this.params) : Promise.resolve([]);
    made.catch(() => undefined); // its failure is awaited below, after the batch before it
    this.inFlight = (async () => {
      await before;
      const features = await made;
      if (features.length !== batch.length) throw new Error(`feature jobs: ${batch.length} samples sent, ${features.length} features back`);
      batch.forEach((s, k) => this.add(s, features[k]));
    })();
    this.inFlight.catch(() => undefined); // awaited by the next call or by `end`
    await before;
  }

  /** Every sample read is added. */
  async end(): Promise<void> {
    await this.next(true);
    await this.inFlight;
  }

  /** The sources, read so that a batch is sent and the one before added between chunks (stream) and row groups (slice). */
  sources(sources: readonly ImportSource[]): ImportSource[] {
    const next = () => this.next();
    return sources.map((src) => ({
      name: src.name,
      size: src.size,
      async *stream() {
        for await (const c of src.stream()) {
          yield c; // read (its samples pushed) before the next is asked for
          await next();
        }
      },
      async slice(a: number, b: number) {
        await next();
        return src.slice(a, b);
      },
    }));
  }
}
