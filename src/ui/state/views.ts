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
