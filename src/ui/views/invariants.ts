/**
 * The four invariant cards (pure): their metrics under their names (src/core/measure/names.ts), each in its
 * quantity's colour (charts/colours.ts, the same as in every other view), the compare run dashed.
 */
import type { Config, ConfigKey } from '../../core/config';
import type { MetricsFrame } from '../../core/metrics';
import type { ScalarName } from '../../core/measure/names';
import { formatValue, type Series } from '../charts/series';
import { STATE_COLOURS, colourOf } from '../charts/colours';
import { shown } from '../state/presenter';
import { scalarSeries, statesOf } from './data';

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
}

type Spec = [key: ScalarName, words: string, colour?: string];

export function invariantCards(history: readonly MetricsFrame[], compare: readonly MetricsFrame[] | undefined, config: Config, picked: string, hidden: readonly ConfigKey[] = [], latest?: MetricsFrame): InvariantCard[] {
  function panel(yLabel: string, specs: Spec[], extra: Partial<InvariantPanel> = {}): InvariantPanel {
    const series: Series[] = specs.flatMap(([key, words, colour]) => {
      const color = colour ?? colourOf(key);
      const label = words ? `${key} (${words})` : key;
      const s: Series[] = [{ key, label, color, points: scalarSeries(history, key) }];
      if (compare?.length) s.push({ key: `cmp:${key}`, label: `${key} — compare`, color, points: scalarSeries(compare, key), dashed: true });
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
    return v === undefined ? 'not in this run' : formatValue(v);
  };
  const states = picked === 'mean' ? statesOf(history) : [picked];
  // one state: the quantity's colour; several: one colour per state
  const stateColour = (i: number) => (states.length === 1 ? undefined : STATE_COLOURS[i % STATE_COLOURS.length]);
  return [
    {
      title: '① Exploration space does not collapse',
      line: `Each state keeps several truly feasible behaviors (π > ε = ${shown(config, 'feasibilityEps', hidden)}); token entropy alone can hide a collapse.`,
      panels: drawn([
        panel('# behaviors', states.map((s, i): Spec => [`support/behavior_support/${s}`, '', stateColour(i)]), { stepCurve: true, integerTicks: true }),
        panel('nats', [['support/token_entropy', 'surface variety']]),
        // collapse vs convergence: both lower H(B|S); only convergence keeps I(S;B) (a behavior per state)
        panel('nats', [['support/behavior_cond_entropy', 'H(B|S)'], ['support/behavior_mutual_info', 'I(S;B)']]),
        panel('share', [['support/best_behavior_match', 'states whose top behavior is rewarded there']], { yDomain: [0, 1] }),
      ]),
    },
    {
      title: '② Gradients do not degenerate',
      line: `Rewards must differ within a state or group, or the advantage (and the gradient) is zero. Now: grad/norm ${now('grad/norm')}.`,
      panels: drawn([
        panel('variance', [['grad/reward_var', 'reward variance']]),
        panel('share', [['grad/zero_std_frac', 'groups with no variance']]),
        // the raw norm before clipping: promoted A = 0 turns (at-least-one) shrink it under token-mean
        panel('norm', [['grad/norm', 'before clipping']]),
      ]),
    },
    {
      title: '③ The on-policy gap stays bounded',
      line: `Ratio clip [1 − ${shown(config, 'clipLow', hidden)}, 1 + ${shown(config, 'clipHigh', hidden)}]; staleness ${shown(config, 'staleness', hidden)}; requests answered 503 this step: ${now('gap/requests_503')}.`,
      panels: drawn([
        panel('share', [['gap/clipfrac_low', ''], ['gap/clipfrac_high', '']]),
        panel('nats', [['gap/ppo_kl', ''], ['gap/rollout_logprob_abs_diff', 'rollout vs trainer']]),
        panel('nats', [['gap/request_kl', 'what users ask for vs what the policy produces']]),
      ]),
    },
    {
      title: '④ Effective sample rate',
      line: 'Share of queued samples that carry a learning signal; masked samples still cost compute.',
      panels: drawn([
        panel('share', [['esr/effective_rate', 'effective / queued'], ['esr/yield', 'effective / served'], ['esr/hint_accept_rate', '']], { yDomain: [0, 1] }),
        panel('# samples', [['esr/queued', ''], ['esr/masked', ''], ['esr/dropped', '']]),
      ]),
    },
  ];
}
