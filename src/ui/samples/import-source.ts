/**
 * The samples of the run the import view shows: a page served by `npm run watch --port` asks the
 * watch (its sample endpoint); otherwise the import worker holds them (a measured import, a folder
 * followed in this page).
 */
import type { ImportWorker } from '../import/import-client';
import { servedSource, type SampleSource } from './source';

export function workerSource(worker: ImportWorker, label: string): SampleSource {
  return {
    label,
    files: true,
    facets: () => worker.call((api) => api.sampleFacets()),
    query: (q) => worker.call((api) => api.samples(q)),
  };
}

export function importSampleSource(session: { streamed: boolean; live: unknown; worker: ImportWorker }, streamUrl: string | null): SampleSource {
  if (session.streamed && streamUrl) return servedSource(streamUrl);
  return workerSource(session.worker, session.live ? 'the run followed in this page' : 'the imported run');
}
