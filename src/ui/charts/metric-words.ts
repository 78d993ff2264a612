/**
 * Every metric in plain words (pure): the one table the page's legends, pickers and titles read, so
 * a learner sees "share of groups with no reward variance" where the log says `grad/zero_std_frac`
 * (the key stays one hover away, in a tooltip: `metricTitle`). Fixed names are listed, and the
 * compiler checks that every fixed name of src/core/measure/names.ts is here; names that carry a
 * task's states and behaviors are read by pattern.
 */
import type { PerfName, ScalarName, SeriesName } from '../../core/measure/names';
import { KEY_NAMES, type ChartNames } from './names';

/** The names of a union without a template part (`support/behavior_support/${string}` drops out). */
type Fixed<T> = T extends string ? ({} extends Record<T, 1> ? never : T) : never;
export type FixedMetricName = Fixed<ScalarName | SeriesName | PerfName>;

const WORDS = {
  'support/token_entropy': 'token entropy (surface variety)',
  'support/token_support': 'distinct likely tokens per position',
  'support/behavior_cond_entropy': 'behavior entropy within a state, H(B|S)',
  'support/behavior_mutual_info': 'how much the state decides the behavior, I(S;B)',
  'support/best_behavior_match': 'states whose top behavior is rewarded there',
  'gap/request_kl': 'what users ask for vs what the policy produces (KL)',
  'support/token_entropy_empirical': 'next-word entropy of the text (no log-probs)',
  'support/distinct_1': 'distinct words (distinct-1)',
  'support/distinct_2': 'distinct word pairs (distinct-2)',
  'reward/mean': 'mean reward of served turns',
  'reward/var': 'reward variance',
  'import/samples': 'samples in the step',
  'import/judged': 'samples with a reward',
  'import/unclassified': 'samples no behavior rule matched',
  'import/response_tokens': 'response tokens',
  'grad/reward_var': 'reward variance within a state or group',
  'grad/zero_std_frac': 'groups with no reward variance (no gradient)',
  'grad/norm': 'gradient norm before clipping',
  'grad/adv_abs_mean': 'mean size of the advantage',
  'gap/clipfrac_low': 'tokens clipped below (ratio under 1 − clip low)',
  'gap/clipfrac_high': 'tokens clipped above (ratio over 1 + clip high)',
  'gap/ppo_kl': 'policy change per update (KL)',
  'gap/rollout_logprob_abs_diff': 'log-prob gap, rollout vs trainer',
  'gap/requests_503': 'requests answered 503 (weight sync)',
  'gap/lost_503': 'sessions lost to a 503 (no retry)',
  'gap/staleness': 'policy versions behind (staleness)',
  'esr/effective_rate': 'effective sample rate (effective / queued)',
  'esr/yield': 'yield (effective / served)',
  'esr/hint_accept_rate': 'hints accepted',
  'esr/served': 'turns served',
  'esr/queued': 'samples queued for training',
  'esr/masked': 'queued with mask 0 (no signal)',
  'esr/dropped': 'dropped (never queued)',
  'esr/overflow': 'queued but not trained this step',
  'esr/mask0_compute_share': 'mask-0 share of trained tokens (compute, no signal)',
  'train/loss': 'training loss',
  'train/pg_loss': 'policy-gradient loss',
  'train/entropy': 'policy entropy in the update',
  'train/updates': 'optimizer updates',
  'support/pass_at_k': 'pass@k',
  'support/pass_at_k_base': 'pass@k of the base',
  'gap/ratio_hist': 'token ratios (histogram)',
  'gate/rule_counts': 'samples per gate rule',
  'perf/steps_per_s': 'steps per second',
  'perf/tokens_per_s': 'tokens per second',
} as const satisfies Record<FixedMetricName, string>;

const SIGN: Record<string, string> = { pos: 'positive', zero: 'zero', neg: 'negative' };

/** The quantities measured per state (`<name>/<state>`). */
const PER_STATE = {
  'support/behavior_entropy': 'behavior entropy (choice variety)',
  'support/behavior_support': 'behavior support (distinct feasible behaviors)',
  'support/token_entropy': 'token entropy',
  'support/token_entropy_empirical': 'next-word entropy of the text',
  'import/state_samples': 'samples',
} as const;
export type PerStateMetric = keyof typeof PER_STATE;

/** A per-state quantity in words, for `place` ("state math", "average over all 3 states"). */
export function perStateWords(metric: PerStateMetric, place: string): string {
  return `${PER_STATE[metric]}, ${place}`;
}

/** Names with a task's states (s) and behaviors (b) in them, most specific first (`w`: the state's words, `n`: a behavior's). */
const PATTERNS: [RegExp, (w: (s: string) => string, n: (b: string) => string, ...m: string[]) => string][] = [
  [/^(support\/behavior_entropy|support\/behavior_support|support\/token_entropy_empirical|support\/token_entropy|import\/state_samples)\/([^/]+)$/, (w, _, m, s) => perStateWords(m as PerStateMetric, w(s))],
  [/^support\/behavior_dist_se\/([^/]+)\/(.+)$/, (w, n, s, b) => `± of the share of ${n(b)}, ${w(s)}`],
  [/^support\/behavior_dist\/([^/]+)\/(.+)$/, (w, n, s, b) => `share of ${n(b)}, ${w(s)}`],
  [/^support\/behavior_count\/([^/]+)\/(.+)$/, (w, n, s, b) => `samples of ${n(b)}, ${w(s)}`],
  [/^import\/reward_count\/([^/]+)\/([^/]+)\/(pos|zero|neg)$/, (w, n, s, b, sign) => `${n(b)} rewarded ${SIGN[sign]}, ${w(s)}`],
  [/^import\/reward_nonternary\/([^/]+)\/(.+)$/, (w, n, s, b) => `${n(b)} with a reward not in {−1, 0, 1}, ${w(s)}`],
  [/^import\/next_count\/([^/]+)\/([^/]+)\/(.+)$/, (w, n, s, b, next) => `${n(b)} followed by ${w(next)}, ${w(s)}`],
  [/^import\/end_count\/([^/]+)\/(.+)$/, (w, n, s, b) => `${n(b)} ending the session, ${w(s)}`],
  [/^import\/no_next_count\/([^/]+)\/(.+)$/, (w, n, s, b) => `${n(b)} with no next turn logged, ${w(s)}`],
  [/^import\/length_count\/([^/]+)\/([^/]+)\/(\d+)$/, (w, n, s, b, len) => `${n(b)} answers of length ${len}, ${w(s)}`],
  [/^import\/filler_repeats\/([^/]+)\/(.+)$/, (w, n, s, b) => `${n(b)}: repeated filler words, ${w(s)}`],
  [/^import\/filler_pairs\/([^/]+)\/(.+)$/, (w, n, s, b) => `${n(b)}: filler word pairs, ${w(s)}`],
];

/** "state math"; the pooled pseudo-states read as what they are; a titled state by its title. */
function where(state: string, names: ChartNames): string {
  if (state === 'mean') return 'average over all states';
  if (state === 'all') return 'all states';
  return `state ${names.short('state', state)}`;
}

/**
 * A metric in words (its key itself only for a name the lab does not know, e.g. a log's own); `names`:
 * how the run's states and behaviors read (an imported run's titles; by default their names).
 */
export function metricWords(key: string, names: ChartNames = KEY_NAMES): string {
  if (Object.hasOwn(WORDS, key)) return WORDS[key as FixedMetricName];
  for (const [re, words] of PATTERNS) {
    const m = re.exec(key);
    if (m) return words((s) => where(s, names), (b) => names.short('behavior', b), ...m.slice(1));
  }
  return key;
}

/** Whether the lab has words for `key` (an unknown name is shown as it is). */
export function hasWords(key: string): boolean {
  return metricWords(key) !== key;
}

/** The tooltip of a label in words: the metric's name as logs and exports write it. */
export function metricTitle(key: string): string {
  return `metric: ${key}`;
}

/** Every fixed name (for the tests and pickers). */
export const FIXED_METRICS = Object.keys(WORDS) as FixedMetricName[];
