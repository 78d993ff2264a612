// The WebGPU probe in a worker of its own (started by the lab / experiment worker, see browser.ts):
// a probe that runs past its time limit is ended with terminate(), which no in-thread timeout could
// do to a session run in flight (shader compilation on a software adapter takes minutes).
import { errorText } from '../core/unknown';
import { ortFor } from './ort-builds';
import { probeStepsPerSecond, type ProbeReply, type ProbeWorkload } from './backend-probe';
import { OrtPopulation } from './ort-population';

self.onmessage = async (e: MessageEvent<ProbeWorkload>) => {
  const w = e.data;
  let reply: ProbeReply;
  try {
    const ort = await ortFor('webgpu');
    ort.env.wasm.numThreads = 1; // no pthread workers for a probe that may be terminated
    const pop = await OrtPopulation.create(ort, w.shape, { backend: 'webgpu', size: w.size, seed: 1 });
    reply = { ok: true, stepsPerSecond: await probeStepsPerSecond(pop, w.batch) };
    await pop.dispose();
  } catch (err) {
    reply = { ok: false, error: errorText(err) };
  }
  self.postMessage(reply);
};
