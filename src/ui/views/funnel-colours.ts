/**
 * The sample funnel's one colour table (pure): the gated row's parts coloured by the decision of the
 * rule that decided them (Okabe–Ito: signal = green / blue / pink / sky, mask 0 = greys, dropped =
 * vermillion / orange), the stage bars (served, judged, queued) in a slate no rule uses, and the
 * effective bar in black-green, also no rule's colour: the legend and the bars read from this table,
 * so a rule named "effective" and the effective bar can never look alike by accident.
 */
import type { FunnelStage, RuleInfo } from './data';

const KIND: Record<RuleInfo['decision'], string[]> = { mask1: ['#009E73', '#0072B2', '#CC79A7', '#56B4E9'], mask0: ['#AAAAAA', '#CCCCCC'], drop: ['#D55E00', '#E69F00'] };
/** Stage bars: served, judged, queued. */
export const STAGE_COLOUR = '#5A6B7B';
/** The effective bar (mask 1, non-zero advantage). */
export const EFFECTIVE_COLOUR = '#1B3D2F';

export interface FunnelColours {
  /** Colour of each gated-row part, by its label (the first run's colour wins for a label in both runs). */
  parts: Map<string, string>;
  /** The legend: every part, then the two stage kinds, as [label, colour]. */
  legend: [string, string][];
  /** The fill of a stage bar that is not split into parts. */
  stage(key: FunnelStage['key']): string;
}

/** The colour table of the funnels drawn (each run's stages). */
export function funnelColours(runs: readonly (readonly FunnelStage[])[]): FunnelColours {
  const parts = new Map<string, string>();
  for (const stages of runs) {
    const gated = stages.find((s) => s.key === 'gated')?.parts ?? [];
    const used: Record<string, number> = {};
    for (const p of gated) {
      const kind = p.kind ?? 'mask1';
      const k = (used[kind] = (used[kind] ?? -1) + 1);
      if (!parts.has(p.label)) parts.set(p.label, KIND[kind][k % KIND[kind].length]);
    }
  }
  const legend: [string, string][] = [...parts.entries(), ['samples per stage', STAGE_COLOUR], ['effective (mask 1, non-zero advantage)', EFFECTIVE_COLOUR]];
  return { parts, legend, stage: (key) => (key === 'effective' ? EFFECTIVE_COLOUR : STAGE_COLOUR) };
}
