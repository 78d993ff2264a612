/** The chart views below the headline divergence plot (always shown); which ones are on is URL state. */
export const VIEW_IDS = ['behavior', 'metrics', 'support', 'ratio', 'invariants', 'funnel', 'inspector'] as const;
export type ViewId = (typeof VIEW_IDS)[number];

export const VIEW_LABELS: Record<ViewId, string> = {
  behavior: 'Behavior distribution',
  metrics: 'Metrics over time',
  support: 'Support heatmap',
  ratio: 'Ratio histogram',
  invariants: 'Invariant panels',
  funnel: 'Sample funnel',
  inspector: 'Sample inspector',
};

export const DEFAULT_VIEWS: readonly ViewId[] = ['behavior', 'metrics', 'ratio', 'invariants', 'funnel'];

/** How a lesson's watch line names each view (the wording the presets use). */
const NAMED_AS: Record<ViewId, RegExp> = {
  behavior: /behavior distribution/i,
  metrics: /metrics over time/i,
  support: /support heatmap/i,
  ratio: /ratio (view|histogram)/i,
  invariants: /invariant panel/i,
  funnel: /sample funnel/i,
  inspector: /sample inspector/i,
};

/** The views a lesson's watch line tells the class to look at, in the lab's view order. */
export function viewsNamedIn(watch: string): ViewId[] {
  return VIEW_IDS.filter((id) => NAMED_AS[id].test(watch));
}

/**
 * Projector mode shows few views: with a lesson open, the views its watch line names (none: the
 * headline alone); without one, the headline and the first two selected.
 */
export function projectorViews(selected: readonly ViewId[], watch: string | undefined): ViewId[] {
  return watch === undefined ? selected.slice(0, 2) : viewsNamedIn(watch);
}
