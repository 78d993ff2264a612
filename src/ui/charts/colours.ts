/**
 * One colour per quantity, for every view (pure). Token entropy is the same blue in the headline,
 * the invariant panels and an export; a quantity keeps its colour wherever it is plotted. There are
 * more quantities than distinguishable hues, so two quantities may share a colour only where no
 * chart shows both (colours.test.ts checks every chart's set). Okabe–Ito hues first, then Paul Tol's
 * muted ones; all dark enough for a 2.5 px line on white.
 */
import type { ScalarName } from '../../core/measure/names';

const BLUE = '#0072B2';
const VERMILLION = '#D55E00';
const GREEN = '#009E73';
const ORANGE = '#E69F00';
const SKY = '#56B4E9';
const PINK = '#CC79A7';
const BLACK = '#000000';
const PURPLE = '#AA4499';
const INDIGO = '#332288';
const WINE = '#882255';
const TEAL = '#44AA99';
const DARK_GREEN = '#117733';
const OLIVE = '#8A8A2E';
const GREY = '#6E6E6E';

/** Quantity (metric name without its `/<state>` part) → colour. */
export const QUANTITY_COLOURS = {
  'support/token_entropy': BLUE,
  'support/behavior_entropy': VERMILLION,
  'support/behavior_support': GREEN,
  'support/behavior_cond_entropy': PURPLE,
  'support/behavior_mutual_info': ORANGE,
  'support/best_behavior_match': INDIGO,
  'grad/reward_var': WINE,
  'grad/zero_std_frac': TEAL,
  'grad/norm': BLACK,
  // the ratio view's bands below / above the clip use the same two
  'gap/clipfrac_low': VERMILLION,
  'gap/clipfrac_high': ORANGE,
  'gap/ppo_kl': SKY,
  'gap/rollout_logprob_abs_diff': WINE,
  'gap/request_kl': INDIGO,
  'gap/requests_503': WINE,
  'gap/lost_503': BLACK,
  'esr/effective_rate': DARK_GREEN,
  'esr/yield': TEAL,
  'esr/hint_accept_rate': PINK,
  'esr/queued': BLUE,
  'esr/served': ORANGE,
  'esr/masked': OLIVE,
  'esr/dropped': VERMILLION,
  'esr/mask0_compute_share': GREY,
  'reward/mean': INDIGO,
} as const satisfies Partial<Record<string, string>>;

export type Quantity = keyof typeof QUANTITY_COLOURS;

/** pass@k for the (at most three) k the lab plots, smallest first. */
export const PASS_AT_COLOURS = [SKY, BLUE, PURPLE] as const;

/**
 * Per-state series of one quantity in one panel (support on each state): colours by state index,
 * none of them used by the other quantities of the support card.
 */
export const STATE_COLOURS = [GREEN, SKY, WINE, OLIVE, VERMILLION, GREY, TEAL, BLACK] as const;

/** The colour of a metric: `support/behavior_support/code` is the colour of `support/behavior_support`. */
export function colourOf(metric: ScalarName | Quantity | string): string {
  if (metric in QUANTITY_COLOURS) return QUANTITY_COLOURS[metric as Quantity];
  const cut = metric.lastIndexOf('/');
  const base = cut > 0 ? metric.slice(0, cut) : '';
  if (base in QUANTITY_COLOURS) return QUANTITY_COLOURS[base as Quantity];
  throw new Error(`no colour for ${metric}: add it to QUANTITY_COLOURS`);
}

/**
 * The headline's average over all states of a per-state quantity, drawn beside the state's own line:
 * a hue of its own (a lighter shade of the same hue could not be told apart from the back of a room
 * or with red-green colour blindness; colours.test.ts simulates both and bounds the difference).
 */
const MEAN_COLOURS: Partial<Record<Quantity, string>> = {
  'support/behavior_entropy': WINE,
  'support/behavior_support': BLACK,
};

export function meanColourOf(metric: Quantity): string {
  const c = MEAN_COLOURS[metric];
  if (!c) throw new Error(`no average-over-states colour for ${metric}`);
  return c;
}
