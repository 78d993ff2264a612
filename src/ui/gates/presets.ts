// The built-in gates as starting points (the lab's editor, the import's replay): each method's rules
// from src/core/gates/builtin.ts (the one implementation of each) with the given knobs, plus GRPO
// with dynamic sampling (DAPO's zero-variance filter).
import { METHOD_NAMES, makeConfig } from '../../core/config';
import { METHOD_DOCS, binaryRlWholeSessionText, builtinGateText, type GateKnobs } from '../../core/gates/builtin';

const WHOLE_SESSION_DOC = 'the lab\'s earlier at-least-one: promotes the first judged turn only when no turn of the whole session is effective (OpenClaw\'s server promotes while none is effective so far)';

export interface GatePreset {
  name: string;
  doc: string;
  text: string;
}

const TITLES: Record<(typeof METHOD_NAMES)[number], string> = {
  'binary-rl': 'Binary RL',
  opd: 'OPD',
  combine: 'Combine',
  grpo: 'GRPO',
  'dr-grpo': 'Dr.GRPO',
};

/** Every built-in gate with the knobs of `knobs` (weights, at-least-one, mask-0 mode, std). */
export function builtinGates(knobs: GateKnobs): GatePreset[] {
  return [
    ...METHOD_NAMES.map((m) => ({ name: TITLES[m], doc: METHOD_DOCS[m], text: builtinGateText({ ...knobs, method: m, dynamicSampling: m === 'grpo' ? false : knobs.dynamicSampling }) })),
    { name: 'GRPO + dynamic sampling', doc: 'GRPO that drops zero-variance groups (DAPO\'s dynamic sampling)', text: builtinGateText({ ...knobs, method: 'grpo', normalizeStd: true, dynamicSampling: true }) },
    { name: 'Binary RL, whole-session at-least-one', doc: WHOLE_SESSION_DOC, text: binaryRlWholeSessionText(knobs) },
  ];
}

/** The import panel's presets: the built-in gates with the default knobs, keyed by "method: doc", each with its short name. */
export const GATE_PRESET_LIST: readonly (GatePreset & { key: string })[] = builtinGates(makeConfig({})).map((p, i) => ({
  ...p,
  key: i < METHOD_NAMES.length ? `${METHOD_NAMES[i]}: ${p.doc}` : i === METHOD_NAMES.length ? 'grpo + dynamic sampling (drop zero-variance groups)' : `binary-rl, whole-session at-least-one: ${p.doc}`,
}));

/** The built-in gates with the default knobs, by "method: doc" (the import panel's preset values). */
export const GATE_PRESETS: Record<string, string> = Object.fromEntries(GATE_PRESET_LIST.map((p) => [p.key, p.text]));
