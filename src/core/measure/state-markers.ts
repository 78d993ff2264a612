/**
 * The headline's numbered markers of one state, read off metric frames: the behavior shares and
 * their standard errors per step (`support/behavior_dist{,_se}/<state>/<behavior>`) and token
 * entropy, into the marker rule (divergence.ts). The divergence plot draws these
 * (src/ui/views/DivergencePlot.svelte) and a lesson's marker numbers over seeds are derived from an
 * experiment record by the same call (src/core/experiment/seed-readings.ts): one rule.
 */
import type { MetricsFrame } from '../metrics';
import { divergenceMarkers, type BehaviorPoint, type DivergenceMarker } from './divergence';

export const DIST = 'support/behavior_dist/';

/** Behaviors measured for `state` (`support/behavior_dist/<state>/<behavior>`), `invalid` last. */
export function behaviorsOf(frames: readonly Pick<MetricsFrame, 'scalars'>[], state: string): string[] {
  const f = frames[frames.length - 1];
  if (!f) return [];
  const p = `${DIST}${state}/`;
  const names = Object.keys(f.scalars).filter((k) => k.startsWith(p)).map((k) => k.slice(p.length));
  return [...names.filter((n) => n !== 'invalid'), ...names.filter((n) => n === 'invalid')];
}

/** Per step, π(b | state) and its recorded standard error for each valid behavior (the marker rule's input). */
export function behaviorPoints(frames: readonly Pick<MetricsFrame, 'step' | 'scalars'>[], state: string): Omit<BehaviorPoint, 'tokenEntropy'>[] {
  const beh = behaviorsOf(frames, state).filter((b) => b !== 'invalid');
  if (!beh.length) return [];
  return frames.flatMap((f) => {
    if (!(`${DIST}${state}/${beh[0]}` in f.scalars)) return [];
    return [{ step: f.step, p: beh.map((b) => f.scalars[`${DIST}${state}/${b}`] ?? NaN), se: beh.map((b) => f.scalars[`support/behavior_dist_se/${state}/${b}`] ?? 0) }];
  });
}

/**
 * The markers of one state: token entropy as a share of its value at step 0 (`start`, the base)
 * when that is known, else of the first steps. `highShare` defaults to the marker rule's 0.8.
 */
export function stateMarkers(frames: readonly Pick<MetricsFrame, 'step' | 'scalars'>[], start: Pick<MetricsFrame, 'scalars'> | null, state: string, opts: { eps: number; samples: number; highShare?: number }): DivergenceMarker[] {
  const tok = new Map<number, number>();
  for (const f of frames) {
    const v = f.scalars['support/token_entropy'];
    if (typeof v === 'number' && Number.isFinite(v)) tok.set(f.step, v);
  }
  const tokenStart = start?.scalars['support/token_entropy'];
  return divergenceMarkers(
    behaviorPoints(frames, state).map((p) => ({ ...p, tokenEntropy: tok.get(p.step) ?? NaN })),
    { ...opts, ...(tokenStart !== undefined ? { tokenStart } : {}) },
  );
}
