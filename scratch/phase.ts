import { readFileSync } from 'node:fs';
import { parseExperimentSpec, experimentCell } from '../src/core/experiment/spec';
import { createCliEngine, loadBase } from '../src/cli/engine-setup';
import { Run } from '../src/core/loop';
const spec = parseExperimentSpec(JSON.parse(readFileSync('/tmp/jobs/l3.json', 'utf8')));
for (let i = 0; i < 3; i++) {
  const cell = experimentCell(spec, i);
  let t = performance.now(); const u0 = process.cpuUsage();
  const lap = (n: string) => { const now = performance.now(); const u = process.cpuUsage(u0); console.log(i, n, (now - t).toFixed(0), 'ms; cpu', ((u.user + u.system) / 1000).toFixed(0)); t = now; };
  const e = await createCliEngine('wasm', cell.config); lap('engine');
  await loadBase(e, 'wasm', cell.config, {}); lap('base');
  const run = await Run.create(e, cell.config); lap('Run.create');
  for (let s = 0; s < 3; s++) await run.step(); lap('3 steps');
  run.dispose(); await e.dispose(); lap('dispose');
}
