// The first difference between two runs' frames in their deterministic parts, bit for bit: what a
// reproduction check (reproduce.ts), a replay (src/core/run/replay.ts) and a bundle's check that no
// run carries another seed's frames (bundle.ts) compare.
import { scalarAt, seriesAt, type MetricsFrame } from '../metrics';

export interface FrameDifference {
  step: number;
  key: string;
  expected: unknown;
  got: unknown;
}

/** Same number bit for bit (NaN equals NaN; 0 and −0 differ). */
const same = (x: unknown, y: unknown) => Object.is(x, y);

/**
 * First difference between two runs' frames in their deterministic parts (step, version, scalars,
 * series, ratio edges, changes; never perf, the wall clock, nor traces), or null when identical.
 */
export function firstFrameDifference(expected: readonly MetricsFrame[], got: readonly MetricsFrame[]): FrameDifference | null {
  const n = Math.max(expected.length, got.length);
  for (let i = 0; i < n; i++) {
    const a = expected[i];
    const b = got[i];
    if (!a || !b) return { step: (a ?? b).step, key: 'frames', expected: a ? 'a frame' : 'no frame', got: b ? 'a frame' : 'no frame' };
    const d = (key: string, x: unknown, y: unknown): FrameDifference => ({ step: a.step, key, expected: x, got: y });
    if (!same(a.step, b.step)) return d('step', a.step, b.step);
    if (!same(a.version, b.version)) return d('version', a.version, b.version);
    for (const k of new Set([...Object.keys(a.scalars), ...Object.keys(b.scalars)])) if (!same(scalarAt(a.scalars, k), scalarAt(b.scalars, k))) return d(k, scalarAt(a.scalars, k), scalarAt(b.scalars, k));
    for (const k of new Set([...Object.keys(a.series), ...Object.keys(b.series)])) {
      const x = seriesAt(a.series, k) ?? [];
      const y = seriesAt(b.series, k) ?? [];
      if (x.length !== y.length || x.some((v, j) => !same(v, y[j]))) return d(k, x, y);
    }
    if (a.ratioEdges.length !== b.ratioEdges.length || a.ratioEdges.some((v, j) => !same(v, b.ratioEdges[j]))) return d('ratioEdges', a.ratioEdges, b.ratioEdges);
    if (JSON.stringify(a.changes) !== JSON.stringify(b.changes)) return d('changes', a.changes, b.changes);
  }
  return null;
}
