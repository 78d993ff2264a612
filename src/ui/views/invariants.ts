/**
 * The four invariant cards (pure): their metrics in words (charts/metric-words.ts; the name of
 * src/core/measure/names.ts in the legend's tooltip), each in its quantity's colour (charts/colours.ts,
 * the same as in every other view), the compare run dashed. On an imported log a card says what the
 * log lacks rather than "no data yet", and ③ shows no lab setting as if it were the log's.
 */
import type { Config, ConfigKey } from '../../core/config';
import type { MetricsFrame } from '../../core/metrics';
import type { ScalarName } from '../../core/measure/names';
import { formatValue, type Series } from '../charts/series';
import { STATE_COLOURS, colourOf } from '../charts/colours';
import { shown } from '../state/presenter';
import { scalarSeries, statesOf } from './data';
import { metricWords } from '../charts/metric-words';
import { KEY_NAMES, type ChartNames } from '../charts/names';

export interface InvariantPanel {
  yLabel: string;
  series: Series[];
  height: number;
  yDomain?: [number, number];
  stepCurve?: boolean;
  integerTicks?: boolean;
}
export interface InvariantCard {
  title: string;
  line: string;
  panels: InvariantPanel[];
  /** What the card says instead of plots when the run has frames but none of its metrics (an imported log). */
  empty?: string;
}
/** An imported log rather than a run the lab trains: what it can never have is said, not "no data yet". */
export interface LogSource {
  /** The log carries the rollout's per-token log-probs. */
  logprobs: boolean;
}

type Spec = [key: ScalarName, colour?: string];

/** What a log lacks for card ③ (its ratios and KL come from the trainer's own log-probs of each update). */
export function gapMissing(log: LogSource): string {
  const why = log.logprobs ? 'the log has the rollout\'s log-probs but not the trainer\'s' : 'the log has no log-probs';
  return `Not in this log: clip fractions, the policy change per update and the rollout–trainer gap need the trainer's log-probs of every update (${why}).`;
}
/** …and for card ④: the gate's decisions (queued, masked) are not logged; a gate replayed on the log gives them. */
export const ESR_MISSING = 'Not in this log: it records no gate decisions (queued, masked). Replay a gate on all steps (below) to see the effective sample rate.';

/** `names`: how the run's states read in the legends (an imported run's titles; by default their names). */
export function invariantCards(history: readonly MetricsFrame[], compare: readonly MetricsFrame[] | undefined, config: Config, picked: string, hidden: readonly ConfigKey[] = [], latest?: MetricsFrame, log?: LogSource, names: ChartNames = KEY_NAMES): InvariantCard[] {
  function panel(yLabel: string, specs: Spec[], extra: Partial<InvariantPanel> = {}): InvariantPanel {
    const series: Series[] = specs.flatMap(([key, colour]) => {
      const color = colour ?? colourOf(key);
      const label = metricWords(key, names);
      const s: Series[] = [{ key, label, metric: key, color, points: scalarSeries(history, key) }];
      if (compare?.length) s.push({ key: `cmp:${key}`, label: `${label} — compare`, metric: key, color, points: scalarSeries(compare, key), dashed: true });
      // once there is data, a metric the run does not have (an import has no I(S;B)) is not listed
      return history.length ? s.filter((x) => x.points.length > 0) : s;
    });
    // shares and counts never go below 0: keep 0 at the bottom even for a flat-zero metric
    const max = Math.max(0, ...series.flatMap((x) => x.points.map((p) => p.value)));
    const floor = yLabel === 'share' || yLabel.startsWith('#') ? { yDomain: [0, max > 0 ? max * 1.08 : 1] as [number, number] } : {};
    return { yLabel, series, height: 105, ...floor, ...extra };
  }
  /** A card's panels that have something to draw (all of them before the first frame). */
  const drawn = (panels: InvariantPanel[]) => panels.filter((p) => p.series.length > 0);
  const frame = latest ?? history[history.length - 1];
  // an imported log carries a subset of the metrics (no grad/norm, no 503s): say so, not "NaN"
  const now = (k: ScalarName) => {
    const v = frame?.scalars[k];
    return `${metricWords(k)}: ${v === undefined ? (log ? 'not in this log' : 'not in this run') : formatValue(v)}`;
  };
  /** A card with frames but none of its metrics (an imported log) says what the log lacks. */
  const card = (c: InvariantCard, missing: string): InvariantCard => (log && history.length && c.panels.length === 0 ? { ...c, empty: missing } : c);
  const states = picked === 'mean' ? statesOf(history) : [picked];
  // one state: the quantity's colour; several: one colour per state
  const stateColour = (i: number) => (states.length === 1 ? undefined : STATE_COLOURS[i % STATE_COLOURS.length]);
  return [
    {
      title: '① Exploration space does not collapse',
      line: `Each state keeps several truly feasible behaviors (π > ε = ${shown(config, 'feasibilityEps', hidden)}); token entropy alone can hide a collapse.`,
      panels: drawn([
        panel('# behaviors', states.map((s, i): Spec => [`support/behavior_support/${s}`, stateColour(i)]), { stepCurve: true, integerTicks: true }),
        panel('nats', [['support/token_entropy']]),
        // collapse vs convergence: both lower H(B|S); only convergence keeps I(S;B) (a behavior per state)
        panel('nats', [['support/behavior_cond_entropy'], ['support/behavior_mutual_info']]),
        panel('share', [['support/best_behavior_match']], { yDomain: [0, 1] }),
      ]),
    },
    card({
      title: '② Gradients do not degenerate',
      line: `Rewards must differ within a state or group, or the advantage (and the gradient) is zero. Now: ${now('grad/norm')}.`,
      panels: drawn([
        panel('variance', [['grad/reward_var']]),
        panel('share', [['grad/zero_std_frac']]),
        // the raw norm before clipping: promoted A = 0 turns (at-least-one) shrink it under token-mean
        panel('norm', [['grad/norm']]),
      ]),
    }, 'Not in this log: no sample carries a reward, so the reward variance (and whether the gradient vanishes) cannot be measured.'),
    card({
      title: '③ The on-policy gap stays bounded',
      // a log does not record the trainer's clip range or staleness: the lab's own settings are not its
      line: log
        ? "The trainer's ratio clip range and staleness are not in the log (they are the trainer's settings)."
        : `Ratio clip [1 − ${shown(config, 'clipLow', hidden)}, 1 + ${shown(config, 'clipHigh', hidden)}]; staleness ${shown(config, 'staleness', hidden)}; this step, ${now('gap/requests_503')}.`,
      panels: drawn([
        panel('share', [['gap/clipfrac_low'], ['gap/clipfrac_high']]),
        panel('nats', [['gap/ppo_kl'], ['gap/rollout_logprob_abs_diff']]),
        panel('nats', [['gap/request_kl']]),
      ]),
    }, log ? gapMissing(log) : ''),
    card({
      title: '④ Effective sample rate',
      line: 'Share of queued samples that carry a learning signal; masked samples still cost compute.',
      panels: drawn([
        panel('share', [['esr/effective_rate'], ['esr/yield'], ['esr/hint_accept_rate']], { yDomain: [0, 1] }),
        panel('# samples', [['esr/queued'], ['esr/masked'], ['esr/dropped']]),
      ]),
    }, ESR_MISSING),
  ];
}
