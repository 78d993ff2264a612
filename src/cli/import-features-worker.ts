// A worker thread of `npm run import -- --jobs N` (started by import-jobs.ts, never by hand): makes
// behavior discovery's features of each batch of samples it is sent (discoverer.ts `features`, the
// same code one thread runs) and sends them back in order.
import { parentPort } from 'node:worker_threads';
import { BehaviorDiscoverer, type BehaviorFeatures, type ClusterParams, type FeatureInput } from '../core/import/index';
import { errorText } from '../core/unknown';

export interface FeaturesRequest {
  id: number;
  params: ClusterParams;
  samples: FeatureInput[];
}
export type FeaturesReply = { id: number; features: BehaviorFeatures[] } | { id: number; error: string };

if (!parentPort) {
  process.stderr.write('import-features-worker: started by `npm run import -- --jobs N`, not by hand\n');
  process.exit(2);
}
const port = parentPort;
/** One discoverer per settings (an import has one): its request cache is kept between batches. */
const discoverers = new Map<string, BehaviorDiscoverer>();

port.on('message', (m: FeaturesRequest) => {
  try {
    const key = JSON.stringify(m.params);
    let d = discoverers.get(key);
    if (!d) discoverers.set(key, (d = new BehaviorDiscoverer([], m.params)));
    const features = m.samples.map((s) => d.features(s));
    // the docs' arrays move to the parent, not copied
    port.postMessage({ id: m.id, features } satisfies FeaturesReply, features.flatMap((f) => (f.doc ? [f.doc.keys.buffer, f.doc.x.buffer, f.doc.wordy.buffer] as ArrayBuffer[] : [])));
  } catch (e) {
    port.postMessage({ id: m.id, error: errorText(e) } satisfies FeaturesReply);
  }
});
