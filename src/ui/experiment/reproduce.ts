/**
 * Did a re-run reproduce? Compares the deterministic parts of every frame (step, version, scalars,
 * series, ratio edges, changes; never `perf`, the wall clock) bit for bit, cell by cell.
 */
import type { MetricsFrame } from '../../core/metrics';

export interface Difference {
  cell: number;
  step: number;
  key: string;
  expected: unknown;
  got: unknown;
}

export interface Reproduction {
  identical: boolean;
  cells: number;
  frames: number;
  first?: Difference;
}

/** Same number bit for bit (NaN equals NaN, 0 and −0 differ). */
const same = (x: unknown, y: unknown) => Object.is(x, y);

function firstDiff(cell: number, a: MetricsFrame, b: MetricsFrame): Difference | undefined {
  const d = (key: string, expected: unknown, got: unknown): Difference => ({ cell, step: a.step, key, expected, got });
  if (!same(a.step, b.step)) return d('step', a.step, b.step);
  if (!same(a.version, b.version)) return d('version', a.version, b.version);
  for (const k of new Set([...Object.keys(a.scalars), ...Object.keys(b.scalars)])) if (!same(a.scalars[k], b.scalars[k])) return d(k, a.scalars[k], b.scalars[k]);
  for (const k of new Set([...Object.keys(a.series), ...Object.keys(b.series)])) {
    const x = a.series[k] ?? [];
    const y = b.series[k] ?? [];
    if (x.length !== y.length || x.some((v, i) => !same(v, y[i]))) return d(k, x, y);
  }
  if (a.ratioEdges.length !== b.ratioEdges.length || a.ratioEdges.some((v, i) => !same(v, b.ratioEdges[i]))) return d('ratioEdges', a.ratioEdges, b.ratioEdges);
  if (JSON.stringify(a.changes) !== JSON.stringify(b.changes)) return d('changes', a.changes, b.changes);
  return undefined;
}

export function compareRuns(expected: readonly (readonly MetricsFrame[])[], got: readonly (readonly MetricsFrame[])[]): Reproduction {
  let frames = 0;
  for (let c = 0; c < Math.max(expected.length, got.length); c++) {
    const e = expected[c] ?? [];
    const g = got[c] ?? [];
    for (let i = 0; i < Math.max(e.length, g.length); i++) {
      if (!e[i] || !g[i]) return { identical: false, cells: expected.length, frames, first: { cell: c, step: (e[i] ?? g[i])!.step, key: 'frame count', expected: e.length, got: g.length } };
      const d = firstDiff(c, e[i], g[i]);
      if (d) return { identical: false, cells: expected.length, frames, first: d };
      frames++;
    }
  }
  return { identical: true, cells: expected.length, frames };
}
