// Runs the fidelity checks of tests/support/fidelity.ts on an engine, e.g. the transformer:
//   npx tsx tests/support/fidelity-cli.ts --engine wasm --check support-collapse [--set lr=0.0005 ...]
// Prints one JSON line per check (name, pass, measured values).
import { parseField, type Config } from '../../src/core/config';
import type { PolicyEngine, PolicyShape } from '../../src/core/engine';
import { baseFactory } from './factory';
import * as F from './fidelity';
import { createTabularEngine } from '../../src/engine/tabular/tabular-engine';
import { policyShape } from '../../src/core/pretrain';
import { shippedBase } from '../../src/cli/checkpoints';

const argv = process.argv.slice(2);
const opt = (name: string, dflt: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : dflt;
};
const engineKind = opt('--engine', 'wasm');
const checks = opt('--check', 'all').split(',');
const overrides: Partial<Config> = {};
argv.forEach((a, i) => {
  if (a !== '--set') return;
  const [k, v] = argv[i + 1].split('=');
  (overrides as Record<string, unknown>)[k] = parseField(k, v);
});

async function create(shape: PolicyShape, seed: number): Promise<PolicyEngine> {
  if (engineKind === 'tabular') return createTabularEngine(shape);
  const { createNodeEngine } = await import('../../src/engine/node'); // the one import of the real engine
  return createNodeEngine(shape, { seed });
}

// shipped checkpoints (npm run pretrain) are used when they fit, unless --pretrain-steps is given
const loadBase = (cfg: Config): Float32Array | null => {
  if (engineKind === 'tabular' || argv.includes('--pretrain-steps')) return null;
  const base = shippedBase(cfg.task, policyShape(cfg), cfg.temperature);
  return typeof base === 'string' ? null : base.weights;
};
const make = baseFactory(create, { loadBase, pretrainSteps: Number(opt('--pretrain-steps', '400')), pretrainLr: Number(opt('--pretrain-lr', engineKind === 'tabular' ? '0.05' : '0.003')) });
const seeds = opt('--seeds', '1,2,3,4').split(',').map(Number);
const steps = Number(opt('--steps', '60'));

const ALL: Record<string, () => Promise<F.FidelityResult>> = {
  'teacher-follows-hint': () => F.teacherFollowsHint(make, { task: overrides.task ?? 'assistant', samples: 32, minFollow: 0.7 }),
  determinism: () => F.determinism(make, { steps: 3, overrides }),
  'ppo-matches-reference': () => F.ppoMatchesReference(make, { updates: 3, tolerance: 1e-4 }),
  'support-collapse': () => F.supportCollapse(make, { steps, entropyFrac: 0.6, overrides }),
  'clip-never-binds-k1': () => F.clipNeverBindsAtK1(make, { steps: Math.min(steps, 20), overrides }),
  'promoted-zero-gradient': () => F.promotedZeroGradient(make, { seed: seeds[0] }),
  'clip-higher-rare': () => F.clipHigherRare(make, { seeds, steps: Math.min(steps, 10), overrides }),
  'gates-hold': () => F.gatesHold(make, { steps: 5 }),
  'staleness-gap': () => F.stalenessGap(make, { steps: Math.min(steps, 30), overrides }),
  'sft-compresses': () => F.sftCompresses(make, { sftSteps: [0, 100], seeds, rlSteps: steps, recoverAt: 0.5, overrides }),
};

for (const name of checks[0] === 'all' ? Object.keys(ALL) : checks) {
  const run = ALL[name];
  if (!run) throw new Error(`unknown check ${name}; one of ${Object.keys(ALL).join(', ')}`);
  const t0 = performance.now();
  const r = await run();
  console.log(JSON.stringify({ ...r, seconds: Math.round((performance.now() - t0) / 100) / 10 }));
}
