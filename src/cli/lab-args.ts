// The lab CLI's command line (src/cli/lab.ts), parsed by node:util parseArgs; --steps and --seed are
// the schema's settings and take its ranges; --set KEY=VALUE goes through the schema's parseField.
import { baseFlags, nonEmpty, parseFlags, settingNumber, UsageError, wholeNumber } from './args';

export interface LabArgs {
  preset?: string;
  steps?: number;
  seed?: number;
  out?: string;
  set: string[];
  gate?: string;
  gateRules: string[];
  engine: 'wasm' | 'tabular';
  base?: string;
  pretrainSteps?: number;
  pretrainLr?: number;
  taskFile?: string;
  trace: boolean;
  quiet: boolean;
  help: boolean;
  snapshot?: string;
  stopAt?: number;
  resume?: string;
  forkAt?: number;
  forkOut?: string;
  forkSet: string[];
}

const OPTIONS = {
  preset: { type: 'string' }, steps: { type: 'string' }, seed: { type: 'string' }, out: { type: 'string' },
  set: { type: 'string', multiple: true }, gate: { type: 'string' }, 'gate-rule': { type: 'string', multiple: true },
  'task-file': { type: 'string' }, snapshot: { type: 'string' }, resume: { type: 'string' }, 'stop-at': { type: 'string' },
  'fork-at': { type: 'string' }, 'fork-out': { type: 'string' }, 'fork-set': { type: 'string', multiple: true },
  engine: { type: 'string', default: 'wasm' }, base: { type: 'string' }, 'pretrain-steps': { type: 'string' }, 'pretrain-lr': { type: 'string' },
  trace: { type: 'boolean', default: false }, quiet: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false },
} as const;

export function parseLabArgs(argv: readonly string[]): LabArgs {
  const { values: v } = parseFlags(argv, OPTIONS);
  if (v.engine !== 'wasm' && v.engine !== 'tabular') throw new UsageError('--engine must be wasm or tabular');
  const a: LabArgs = {
    preset: nonEmpty('--preset', v.preset),
    steps: settingNumber('--steps', 'steps', v.steps),
    seed: settingNumber('--seed', 'seed', v.seed),
    out: nonEmpty('--out', v.out),
    set: v.set ?? [],
    gate: nonEmpty('--gate', v.gate),
    gateRules: v['gate-rule'] ?? [],
    engine: v.engine,
    ...baseFlags(v),
    taskFile: nonEmpty('--task-file', v['task-file']),
    trace: v.trace,
    quiet: v.quiet,
    help: v.help,
    snapshot: nonEmpty('--snapshot', v.snapshot),
    stopAt: wholeNumber('--stop-at', v['stop-at'], 1),
    resume: nonEmpty('--resume', v.resume),
    forkAt: wholeNumber('--fork-at', v['fork-at']),
    forkOut: nonEmpty('--fork-out', v['fork-out']),
    forkSet: v['fork-set'] ?? [],
  };
  if (a.resume !== undefined) {
    const fixed = (['preset', 'seed', 'base', 'pretrainSteps', 'pretrainLr'] as const).filter((k) => a[k] !== undefined);
    if (fixed.length) throw new UsageError(`--resume continues the snapshot's run: its ${fixed.join(', ')} cannot be set (--steps and live --set settings can)`);
  }
  if ((a.forkAt === undefined) !== (a.forkOut === undefined)) throw new UsageError('--fork-at and --fork-out go together');
  if (a.forkSet.length && a.forkAt === undefined) throw new UsageError('--fork-set needs --fork-at and --fork-out');
  return a;
}
