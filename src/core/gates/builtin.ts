// The training methods' gates, written in the rule language (the only implementation of each):
// OpenClaw Binary RL (at-least-one, mask-0 keep/drop), OPD, Combine, and the GRPO / Dr.GRPO
// baselines (with dynamic sampling). The method's knobs in the config fill in the rules.
import type { Config, MethodName } from '../config';
import { compileGate } from './compile';
import { formatDecision, type Gate, type RlSource } from './gate';

export type GateKnobs = Pick<Config, 'method' | 'atLeastOne' | 'maskZeroMode' | 'wOpd' | 'wRl' | 'normalizeStd' | 'dynamicSampling'>;

const line = (when: string, then: string, label: string) => `${when} => ${then} # ${label}`;
const mask1 = (rl: { source: RlSource; weight: number } | null, opd: number | null) => formatDecision({ decision: 'mask1', rl, opd });

/** The rules of a method's gate with its knobs, one per line. */
export function builtinGateText(k: GateKnobs): string {
  switch (k.method) {
    case 'binary-rl': {
      // A = r, no baseline; unjudged and 0-scored turns keep loss mask 0 in the queue (or are dropped);
      // at-least-one as OpenClaw-RL's server computes it (openclaw-rl/openclaw_api_server.py,
      // _submit_turn_sample): a judged turn scored 0 gets mask 1 when its session has no mask-1
      // sample so far in judging order (A = r = 0: no gradient, but it joins the token mean)
      const zero = k.maskZeroMode === 'drop' ? 'drop' : 'mask0';
      return [
        line('!has_next_state', zero, 'no next state'),
        ...(k.atLeastOne ? [line(AT_LEAST_ONE_SO_FAR, 'mask1', 'at-least-one')] : []),
        line('reward == 0', zero, 'score zero'),
        line('true', mask1({ source: 'rl', weight: 1 }, null), 'effective'),
      ].join('\n');
    }
    case 'opd':
      // only turns with an accepted hint train, on the teacher term; the rest is never queued
      return [line('!has_next_state', 'drop', 'no next state'), line('!hint_accepted', 'drop', 'hint rejected'), line('true', mask1(null, 1), 'hint accepted')].join('\n');
    case 'combine': {
      const rl = { source: 'rl' as const, weight: k.wRl };
      return [
        line('has_next_state && hint_accepted && reward != 0', mask1(rl, k.wOpd), 'both'),
        line('has_next_state && hint_accepted', mask1(null, k.wOpd), 'hint only'),
        line('has_next_state && reward != 0', mask1(rl, null), 'eval only'),
        line('true', 'drop', 'neither'),
      ].join('\n');
    }
    case 'grpo':
    case 'dr-grpo': {
      // group-relative advantage; a group whose rewards all agree carries no signal (dynamic sampling drops it)
      const source: RlSource = k.method === 'grpo' && k.normalizeStd ? 'rl_zscore' : 'rl_centered';
      return [
        line('!has_next_state', 'mask0', 'no next state'),
        line('group_reward_std < 1e-6', k.dynamicSampling ? 'drop' : 'mask1', k.dynamicSampling ? 'dynamic sampling' : 'zero-variance group'),
        line('true', mask1({ source, weight: 1 }, null), 'group advantage'),
      ].join('\n');
    }
  }
}

/** The server's at-least-one condition (after the no-next-state rule): scored 0, no mask-1 turn of the session before it. */
export const AT_LEAST_ONE_SO_FAR = 'reward == 0 && session_effective_before == 0';
/** The lab's earlier rule, kept as a named variant: promote the first judged turn only when no turn of the whole session is effective. */
export const AT_LEAST_ONE_WHOLE_SESSION = 'reward == 0 && !session_has_effective && session_first_judged';

/** Binary RL with the earlier whole-session at-least-one (promotes less: only sessions with no ±1 turn at all). */
export function binaryRlWholeSessionText(k: Pick<GateKnobs, 'maskZeroMode'>): string {
  return builtinGateText({ method: 'binary-rl', atLeastOne: true, maskZeroMode: k.maskZeroMode, wOpd: 1, wRl: 1, normalizeStd: true, dynamicSampling: false })
    .replace(`${AT_LEAST_ONE_SO_FAR} =>`, `${AT_LEAST_ONE_WHOLE_SESSION} =>`);
}

export const METHOD_DOCS: Record<MethodName, string> = {
  'binary-rl': 'OpenClaw Binary RL: A = r; unjudged and 0-scored turns stay queued with mask 0; at-least-one',
  opd: 'OpenClaw OPD: only turns with an accepted hint train, on the teacher term',
  combine: 'OpenClaw Combine: RL and OPD signals where present; neither → dropped',
  grpo: 'GRPO: (r − group mean) / group std; zero-variance groups carry no signal',
  'dr-grpo': 'Dr.GRPO: r − group mean (no std division)',
};

/** The gate a config trains with: its `gate` setting when non-empty, else the method's built-in gate with its knobs. */
export function gateOf(c: Pick<Config, keyof GateKnobs | 'gate'>): Gate {
  return compileGate(c.gate.trim() !== '' ? c.gate : builtinGateText(c));
}
