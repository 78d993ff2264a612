// Gates to try on imported logs, written in the gates' rule language (src/core/gates): OpenClaw's
// Binary RL and OPD sample rules and GRPO with DAPO's zero-variance filter, as a real log allows.
export const GATE_PRESETS: Record<string, string> = {
  'OpenClaw Binary RL': [
    '!has_next_state => mask0 # no next state',
    'score == 0 && session_first_judged && !session_has_effective => mask1 rl # at-least-one (A = 0)',
    'score == 0 => mask0 # score 0',
    'true => mask1 rl # judged ±1',
  ].join('\n'),
  'OpenClaw OPD': ['hint_accepted => mask1 opd # accepted hint', 'true => drop # no accepted hint'].join('\n'),
  'GRPO + zero-variance filter': ['!has_next_state => drop # not judged', 'group_reward_std == 0 => drop # zero-variance group', 'true => mask1 rl_zscore # GRPO'].join('\n'),
};
