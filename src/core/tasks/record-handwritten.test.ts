// Records what the hand-written task modules produced (fixtures/handwritten-tasks.json), so the
// specs can be checked against it after the modules are gone. Run once, on the commit that still
// has them: RECORD_HANDWRITTEN=1 npx vitest run --project unit src/core/tasks/record-handwritten.test.ts
import { writeFileSync } from 'node:fs';
import { describe, it } from 'vitest';
import { makeConfig } from '../config';
import { pretrainBase, policyShape } from '../pretrain';
import { createNodeEngine } from '../../engine/node';
import { createTabularEngine } from '../../../tests/support/tabular-engine';
import { fingerprint, frameConfigs, runFrames, sha } from '../../../tests/support/task-fingerprint';
import { BUILTIN_TASK_NAMES } from './builtin';
import { TASKS } from './index';

describe.skipIf(!process.env.RECORD_HANDWRITTEN)('record the hand-written tasks', () => {
  it('writes fixtures/handwritten-tasks.json', async () => {
    const out: Record<string, unknown> = {
      recorded: 'by src/core/tasks/record-handwritten.test.ts from the hand-written modules strategies.ts, assistant.ts, toolchain.ts (commit 806996a)',
    };
    for (const name of BUILTIN_TASK_NAMES) {
      const task = TASKS[name];
      const tabular: string[] = [];
      for (const cfg of frameConfigs(name)) {
        const engine = createTabularEngine(policyShape(cfg));
        await pretrainBase(engine, task, 0, { steps: 40, batch: 32, lr: 0.05, temperature: cfg.temperature });
        await engine.setWeights(await engine.getWeights());
        tabular.push(sha(await runFrames(engine, cfg, 3)));
      }
      const cfg = makeConfig({ task: name, method: 'combine', dModel: 16, layers: 1, heads: 2, mlp: 32, rolloutBatch: 8, behaviorSamples: 8, lr: 0.01, seed: 5 });
      const engine = await createNodeEngine(policyShape(cfg), { seed: 11 });
      await pretrainBase(engine, task, 0, { steps: 3, batch: 16, lr: 3e-3, temperature: cfg.temperature });
      await engine.setWeights(await engine.getWeights());
      const frames = JSON.parse(await runFrames(engine, cfg, 2)) as [Record<string, number>, ...{ scalars: Record<string, number> }[]];
      await engine.dispose();
      out[name] = { ...fingerprint(task), tabularFrames: tabular, wasmScalars: [frames[0], ...frames.slice(1).map((f) => f.scalars)] };
    }
    writeFileSync(new URL('./fixtures/handwritten-tasks.json', import.meta.url), JSON.stringify(out, null, 1) + '\n');
  }, 300_000);
});
