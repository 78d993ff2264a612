// A worker thread of `npm run experiment -- --jobs N` (started by experiment-jobs.ts, never by
// hand): trains groups of cells from the queue it shares with the other jobs (GroupQueue) until none
// is left, one at a time on one engine (reused: engine-reuse.ts) with the WASM threads it is told,
// and sends back each group's runs, progress and info lines, and at the end the CPU time of its own
// thread; the parent ends it once every group is trained.
import { parentPort } from 'node:worker_threads';
import { GroupQueue, drainGroups } from '../core/experiment/jobs';
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

port.once('message', (m: TrainMessage) => {
  const report: TrainReport = {
    info: (line) => m.settings.quiet || send({ kind: 'info', line }),
    step: (cell, step, steps) => send({ kind: 'step', cell, step, steps }),
  };
  const engines = new EngineReuse();
  const train = async () => {
    if (m.settings.engine === 'wasm') await setWasmThreads(m.threads);
    await drainGroups(new GroupQueue(m.groups.length, m.queue), m.groups, (g) => trainGroup(m.settings, g, m.together, report, engines), (group, cells) => send({ kind: 'trained', group, cells }));
  };
  train().then(
    () => send({ kind: 'done', cpuSeconds: threadCpuSeconds() }),
    (e: unknown) => send({ kind: 'failed', message: errorText(e) }),
  );
});
