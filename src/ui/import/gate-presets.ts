// Gates to try on imported logs: the lab's built-in method gates (src/core/gates/builtin.ts, the one
// implementation of each method's rules) with the default knobs, plus GRPO with dynamic sampling
// (DAPO's zero-variance filter).
import { METHOD_NAMES, makeConfig } from '../../core/config';
import { METHOD_DOCS, builtinGateText } from '../../core/gates/builtin';

export const GATE_PRESETS: Record<string, string> = Object.fromEntries([
  ...METHOD_NAMES.map((m) => [`${m}: ${METHOD_DOCS[m]}`, builtinGateText(makeConfig({ method: m }))]),
  ['grpo + dynamic sampling (drop zero-variance groups)', builtinGateText(makeConfig({ method: 'grpo', dynamicSampling: true }))],
]);
