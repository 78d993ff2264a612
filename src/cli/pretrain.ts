// Deterministic pretraining of the base policy of each task (SFT on the task's reference
// distribution, hinted contexts included), written to public/checkpoints/<task>.f32 (raw
// little-endian Float32, the engine's flat parameter layout) with a manifest.
//   npm run pretrain [-- --steps 400 --lr 0.003 --batch 64 --seed 0 --task strategies]
//   npm run pretrain -- --task-file spec.json --out base.f32   a custom task's base, from its base mix
//     (load it with npm run lab -- --task-file spec.json --base base.f32)
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultConfig } from '../core/config';
import { policyShape, pretrainBase } from '../core/pretrain';
import { errorText } from '../core/unknown';
import type { Task } from '../core/tasks/types';
import { BUILTIN_TASK_NAMES, BUILTIN_TASKS, isBuiltinTask, type BuiltinTaskName } from '../core/tasks/builtin';
import { taskFromSpec } from '../core/tasks/compile';
import { parseTaskSpec } from '../core/tasks/validate';
import { readTaskFile } from './task-args';
import { encodeCheckpoint } from '../model/checkpoint';
import { UsageError, parseFlags, positiveNumber, wholeNumber } from './args';
import { CHECKPOINT_DIR, readManifest } from './checkpoints';
import { EXIT_ERROR, EXIT_USAGE } from './exit-codes';

export { CHECKPOINT_DIR, readManifest };

/** Pretrain one task's base on the WASM engine; deterministic from (steps, lr, batch, seed). */
export async function pretrainCheckpoint(task: Task, o: { steps: number; lr: number; batch: number; seed: number }): Promise<{ weights: Float32Array; losses: number[]; sha256: string }> {
  const cfg = defaultConfig();
  const { createNodeEngine } = await import('../engine/node'); // the one import of the real engine
  const engine = await createNodeEngine(policyShape(cfg), { seed: o.seed });
  const losses = await pretrainBase(engine, task, o.seed, { steps: o.steps, batch: o.batch, lr: o.lr, temperature: cfg.temperature });
  const weights = await engine.getWeights();
  await engine.dispose();
  const sha256 = createHash('sha256').update(Buffer.from(weights.buffer, weights.byteOffset, weights.byteLength)).digest('hex');
  return { weights, losses, sha256 };
}

/** The command line: whole numbers and a positive learning rate, strictly (a bad value is exit 2, never a NaN run). */
export function pretrainArgs(argv: readonly string[]): { steps: number; lr: number; batch: number; seed: number; task: BuiltinTaskName | null; taskFile?: string; out?: string; help?: true } {
  const { values: v } = parseFlags(argv, { steps: { type: 'string' }, lr: { type: 'string' }, batch: { type: 'string' }, seed: { type: 'string' }, task: { type: 'string' }, 'task-file': { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean', short: 'h' } });
  if (v.task !== undefined && !isBuiltinTask(v.task)) throw new UsageError(`--task must be one of ${BUILTIN_TASK_NAMES.join(', ')}, got ${JSON.stringify(v.task)}`);
  return {
    steps: wholeNumber('--steps', v.steps, 1) ?? 400,
    lr: positiveNumber('--lr', v.lr) ?? 0.003,
    batch: wholeNumber('--batch', v.batch, 1) ?? 64,
    seed: wholeNumber('--seed', v.seed) ?? 0,
    task: (v.task as BuiltinTaskName | undefined) ?? null,
    ...(v['task-file'] ? { taskFile: v['task-file'] } : {}),
    ...(v.out ? { out: v.out } : {}),
    ...(v.help ? { help: true as const } : {}),
  };
}

/** --help: the usage lines at the top of this file. */
const USAGE = `usage: npm run pretrain [-- --steps 400 --lr 0.003 --batch 64 --seed 0 --task ${BUILTIN_TASK_NAMES.join('|')}]
       npm run pretrain -- --task-file spec.json --out base.f32   (a custom task's base, from its base mix)`;

async function main(): Promise<void> {
  const { steps, lr, batch, seed, task: only, taskFile, out, help } = pretrainArgs(process.argv.slice(2));
  if (help) {
    console.log(USAGE);
    return;
  }
  const cfg = defaultConfig();
  const shape = policyShape(cfg);
  if (taskFile) {
    if (!out) throw new UsageError('--task-file needs --out FILE (the custom base is not written among the shipped checkpoints)');
    const spec = parseTaskSpec(readTaskFile(taskFile));
    if (!spec.ok) throw new Error('unreachable: readTaskFile checked the spec');
    const { weights: w, losses, sha256 } = await pretrainCheckpoint(taskFromSpec(spec.spec), { steps, lr, batch, seed });
    writeFileSync(out, encodeCheckpoint(w));
    console.log(`${spec.spec.name}: ${w.length} params, loss ${losses[0]?.toFixed(3)} → ${losses.at(-1)?.toFixed(3)}, sha256 ${sha256.slice(0, 12)} → ${out}`);
    return;
  }
  mkdirSync(CHECKPOINT_DIR, { recursive: true });
  const manifest = readManifest();
  for (const task of BUILTIN_TASK_NAMES.filter((t) => !only || t === only)) {
    const { weights: w, losses, sha256 } = await pretrainCheckpoint(BUILTIN_TASKS[task], { steps, lr, batch, seed });
    const file = `${task}.f32`;
    writeFileSync(join(CHECKPOINT_DIR, file), encodeCheckpoint(w));
    manifest[task] = { file, shape, params: w.length, steps, lr, batch, seed, temperature: cfg.temperature, finalLoss: losses.at(-1) ?? NaN, sha256 };
    console.log(`${task}: ${w.length} params, loss ${losses[0]?.toFixed(3)} → ${losses.at(-1)?.toFixed(3)}, sha256 ${sha256.slice(0, 12)}`);
  }
  writeFileSync(join(CHECKPOINT_DIR, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((e: unknown) => {
    console.error(errorText(e));
    process.exit(e instanceof UsageError ? EXIT_USAGE : EXIT_ERROR);
  });
}
