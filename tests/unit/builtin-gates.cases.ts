// The configurations on which the built-in gates are checked against frames recorded from the
// hand-written gates they replaced (tests/fixtures/gates/builtin-frames.json). Tabular engine.
import type { Config } from '../../src/core/config';
import { binaryRlWholeSessionText } from '../../src/core/gates/builtin';

// The hand-written Binary RL gate promoted at-least-one over the whole session; that rule is now the
// named variant binaryRlWholeSessionText (the built-in follows OpenClaw's server: "so far"), so the
// Binary RL cases with at-least-one run the variant and must still match the recorded frames.
const whole = (maskZeroMode: Config['maskZeroMode'] = 'keep') => binaryRlWholeSessionText({ maskZeroMode });

export const STEPS = 4;

export const CASES: { name: string; config: Partial<Config> }[] = [
  { name: 'binary-rl strategies', config: { task: 'strategies', method: 'binary-rl', seed: 1, lr: 0.05, gate: whole() } },
  { name: 'binary-rl assistant at-least-one', config: { task: 'assistant', method: 'binary-rl', seed: 2, lr: 0.05, judgeNoise: 0.3, gate: whole() } },
  { name: 'binary-rl assistant no at-least-one, mask-0 dropped', config: { task: 'assistant', method: 'binary-rl', seed: 3, lr: 0.05, atLeastOne: false, maskZeroMode: 'drop' } },
  { name: 'binary-rl assistant at-least-one, mask-0 dropped', config: { task: 'assistant', method: 'binary-rl', seed: 4, lr: 0.05, judgeNoise: 0.5, maskZeroMode: 'drop', gate: whole('drop') } },
  { name: 'binary-rl toolchain (credit-assigned reward)', config: { task: 'toolchain', method: 'binary-rl', seed: 5, lr: 0.05, prmStepCoef: 0.3, gamma: 0.9, gate: whole() } },
  { name: 'opd assistant', config: { task: 'assistant', method: 'opd', seed: 6, lr: 0.05, hintMinLength: 6 } },
  { name: 'combine assistant weighted, stale, 503', config: { task: 'assistant', method: 'combine', seed: 7, lr: 0.05, wOpd: 0.5, wRl: 2, opdAdvClamp: 0.5, staleness: 1, pauseWindow: 0.2, requestRate: 3, updatesPerRollout: 2 } },
  { name: 'combine strategies', config: { task: 'strategies', method: 'combine', seed: 8, lr: 0.05, hintMinLength: 0 } },
  { name: 'grpo strategies', config: { task: 'strategies', method: 'grpo', seed: 9, lr: 0.05 } },
  { name: 'grpo strategies no std, dynamic sampling, 503 in groups', config: { task: 'strategies', method: 'grpo', seed: 10, lr: 0.05, normalizeStd: false, dynamicSampling: true, pauseWindow: 0.3, groupSize: 3 } },
  { name: 'dr-grpo assistant', config: { task: 'assistant', method: 'dr-grpo', seed: 11, lr: 0.05, groupSize: 2 } },
  { name: 'grpo toolchain credit + dynamic sampling', config: { task: 'toolchain', method: 'grpo', seed: 12, lr: 0.05, prmStepCoef: 0.2, stepwiseZ: true, gamma: 0.9, dynamicSampling: true } },
];
