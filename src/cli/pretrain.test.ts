// The shipped base checkpoints are reproduced bit for bit by `npm run pretrain` (checked on one
// task to keep the suite short; all tasks share the routine). The task is the shipped spec
// (builtin/toolchain.json): the checkpoint made from the hand-written module comes out again.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scaled } from '../../tests/support/speed';
import { BUILTIN_TASKS } from '../core/tasks/builtin';
import { CHECKPOINT_DIR, pretrainCheckpoint, readManifest } from './pretrain';

describe('npm run pretrain', () => {
  const manifest = readManifest();
  it('the manifest matches the shipped files', () => {
    for (const [task, e] of Object.entries(manifest)) {
      const bytes = readFileSync(join(CHECKPOINT_DIR, e.file));
      expect(bytes.byteLength / 4, task).toBe(e.params);
      expect(createHash('sha256').update(bytes).digest('hex'), task).toBe(e.sha256);
    }
  });
  it('reproduces the toolchain checkpoint', async () => {
    const e = manifest.toolchain;
    expect(e).toBeDefined();
    const r = await pretrainCheckpoint(BUILTIN_TASKS.toolchain, { steps: e.steps, lr: e.lr, batch: e.batch, seed: e.seed });
    expect(r.sha256).toBe(e.sha256);
  }, scaled(600_000));
});
