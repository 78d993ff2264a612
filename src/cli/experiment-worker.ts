// A worker thread of `npm run experiment -- --jobs N` (started by experiment-jobs.ts, never by
// hand): trains the groups of cells it is sent, one at a time on one engine (reused: engine-reuse.ts)
// with the WASM threads it is told, and sends back their runs, progress and info lines, with the CPU
// time of its own thread; the parent ends it once every group is trained.
import { parentPort } from 'node:worker_threads';
import { errorText } from '../core/unknown';
import type { TrainMessage, WorkerMessage } from './experiment-jobs';
import { EngineReuse } from './engine-reuse';
import { setWasmThreads } from './engine-setup';
import { threadCpuSeconds, trainGroup, type TrainReport } from './experiment-train';

if (!parentPort) {
  process.stderr.write('experiment-worker: started by `npm run experiment -- --jobs N`, not by hand\n');
  process.exit(2);
}
const port = parentPort;
const send = (m: WorkerMessage) => port.postMessage(m);

/** The worker's engine, reused across the groups it is sent. */
const engines = new EngineReuse();

port.on('message', (m: TrainMessage) => {
  const report: TrainReport = {
    info: (line) => m.settings.quiet || send({ kind: 'info', line }),
    step: (cell, step, steps) => send({ kind: 'step', cell, step, steps }),
  };
  const train = async () => {
    if (m.settings.engine === 'wasm') await setWasmThreads(m.threads);
    return trainGroup(m.settings, m.group, m.together, report, engines);
  };
  train().then(
    (cells) => send({ kind: 'trained', cells, cpuSeconds: threadCpuSeconds() }),
    (e: unknown) => send({ kind: 'failed', message: errorText(e) }),
  );
});
