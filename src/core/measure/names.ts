// Every metric name, in one module: one typed union per kind shared by
// the loop, the worker, the views, the importer and the CLI, so a mistyped name does not compile;
// and the scalars a frame really carries (`ScalarsWith`).

/** Scalar metrics of a frame. Per-state / per-behavior names carry the task's names. */
export type ScalarName =
  | 'support/token_entropy' | 'support/token_support'
  | 'support/behavior_cond_entropy' | 'support/behavior_mutual_info' | 'support/best_behavior_match' | 'gap/request_kl'
  | ImportScalarName
  | `support/behavior_entropy/${string}` | `support/behavior_support/${string}`
  | `support/behavior_dist/${string}/${string}` | `support/behavior_dist_se/${string}/${string}`
  | StepScalarName;

/** What an imported log gives besides the support metrics (src/core/import/measure/measure.ts). */
export type ImportScalarName =
  | 'support/token_entropy_empirical' | 'support/distinct_1' | 'support/distinct_2' | 'reward/mean' | 'reward/var'
  | 'import/samples' | 'import/judged' | 'import/unclassified' | 'import/response_tokens'
  | `import/state_samples/${string}` | `support/behavior_count/${string}/${string}`
  | `support/token_entropy/${string}` | `support/token_entropy_empirical/${string}`
  // the counts a task fit reads (src/core/import/measure/fit-counts.ts)
  | `import/reward_count/${string}/${string}/${'pos' | 'zero' | 'neg'}` | `import/reward_nonternary/${string}/${string}`
  | `import/next_count/${string}/${string}/${string}` | `import/end_count/${string}/${string}` | `import/no_next_count/${string}/${string}`
  | `import/length_count/${string}/${string}/${number}` | `import/filler_repeats/${string}/${string}` | `import/filler_pairs/${string}/${string}`;

/** The per-step scalars computed by stepScalars (serving, gating, training). */
export type StepScalarName =
  | 'reward/mean' | 'grad/reward_var' | 'grad/zero_std_frac' | 'grad/norm' | 'grad/adv_abs_mean'
  | 'gap/clipfrac_low' | 'gap/clipfrac_high' | 'gap/ppo_kl' | 'gap/rollout_logprob_abs_diff' | 'gap/requests_503' | 'gap/lost_503' | 'gap/staleness'
  | 'esr/effective_rate' | 'esr/yield' | 'esr/hint_accept_rate' | 'esr/served' | 'esr/queued' | 'esr/masked' | 'esr/dropped' | 'esr/overflow' | 'esr/mask0_compute_share'
  | 'train/loss' | 'train/pg_loss' | 'train/entropy' | 'train/updates';

/** The token-level measure every measured frame carries (the per-state names depend on the task). */
export type TokenScalarName = 'support/token_entropy' | 'support/token_support';

/** The scalars of a frame the training loop produced: the step's and the latest measure's token scalars. */
export type TrainedScalarName = StepScalarName | TokenScalarName;

/** Vector metrics: pass@k (index k − 1), the ratio histogram, samples decided per gate rule. */
export type SeriesName = 'support/pass_at_k' | 'support/pass_at_k_base' | 'gap/ratio_hist' | 'gate/rule_counts';
export type PerfName = 'perf/steps_per_s' | 'perf/tokens_per_s';
export type MetricName = ScalarName | SeriesName | PerfName;

/** Scalars that carry every name of `K` and maybe any other scalar name (a frame of unknown origin: K = never). */
export type ScalarsWith<K extends ScalarName = never> = Record<K, number> & Partial<Record<ScalarName, number>>;
/** Series likewise: every name of `K`, maybe the others. */
export type SeriesWith<K extends SeriesName = never> = Record<K, number[]> & Partial<Record<SeriesName, number[]>>;
