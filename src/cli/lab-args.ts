// The lab CLI's command line (src/cli/lab.ts), parsed by node:util parseArgs; --steps and --seed are
// the schema's settings and take its ranges; --set KEY=VALUE goes through the schema's parseField.
import { baseFlags, nonEmpty, parseFlags, settingNumber, UsageError } from './args';

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
  trace: boolean;
  quiet: boolean;
  help: boolean;
}

const OPTIONS = {
  preset: { type: 'string' }, steps: { type: 'string' }, seed: { type: 'string' }, out: { type: 'string' },
  set: { type: 'string', multiple: true }, gate: { type: 'string' }, 'gate-rule': { type: 'string', multiple: true },
  engine: { type: 'string', default: 'wasm' }, base: { type: 'string' }, 'pretrain-steps': { type: 'string' }, 'pretrain-lr': { type: 'string' },
  trace: { type: 'boolean', default: false }, quiet: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false },
} as const;

export function parseLabArgs(argv: readonly string[]): LabArgs {
  const { values: v } = parseFlags(argv, OPTIONS);
  if (v.engine !== 'wasm' && v.engine !== 'tabular') throw new UsageError('--engine must be wasm or tabular');
  return {
    preset: nonEmpty('--preset', v.preset),
    steps: settingNumber('--steps', 'steps', v.steps),
    seed: settingNumber('--seed', 'seed', v.seed),
    out: nonEmpty('--out', v.out),
    set: v.set ?? [],
    gate: nonEmpty('--gate', v.gate),
    gateRules: v['gate-rule'] ?? [],
    engine: v.engine,
    ...baseFlags(v),
    trace: v.trace,
    quiet: v.quiet,
    help: v.help,
  };
}
