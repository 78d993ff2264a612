import { describe, expect, it } from 'vitest';
import { describeMarker, divergenceMarkers, type BehaviorPoint } from './divergence';

/** Seeded uniform [0, 1) (mulberry32), so the Monte Carlo series are fixed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Monte Carlo estimates (n samples) of the distributions `probs(step)`, with their SE, as the loop records them. */
function sampled(steps: number, n: number, probs: (step: number) => number[], tokenEntropy: (step: number) => number = () => 2, seed = 1): BehaviorPoint[] {
  const u = rng(seed);
  return Array.from({ length: steps }, (_, i) => {
    const pr = probs(i + 1);
    const counts = pr.map(() => 0);
    for (let k = 0; k < n; k++) {
      let r = u();
      let b = 0;
      while (b < pr.length - 1 && r >= pr[b]) r -= pr[b++];
      counts[b]++;
    }
    const p = counts.map((c) => c / n);
    return { step: i + 1, p, se: p.map((x) => Math.sqrt((x * (1 - x)) / n)), tokenEntropy: tokenEntropy(i + 1) };
  });
}

const exact = (rows: number[][], h: number[] = rows.map(() => 2)): BehaviorPoint[] => rows.map((p, i) => ({ step: i + 1, p, se: p.map(() => 0), tokenEntropy: h[i] }));

describe('divergenceMarkers', () => {
  it('does not fire on sampling noise: support wobbling 3-5 around ε gives no marker', () => {
    // two behaviors sit just above ε = 0.02: the raw count (# p̂ > ε) wobbles between 3 and 5
    const pts = sampled(100, 64, () => [0.5, 0.3, 0.14, 0.035, 0.025]);
    const raw = pts.map((q) => q.p.filter((x) => x > 0.02).length);
    expect(Math.min(...raw)).toBeLessThanOrEqual(3);
    expect(Math.max(...raw)).toBe(5);
    expect(divergenceMarkers(pts, { eps: 0.02, samples: 64 })).toEqual([]);
  });

  it('marks a real collapse, at about the step it happened, as a divergence while token entropy stays high', () => {
    const pts = sampled(60, 64, (s) => (s < 30 ? [0.4, 0.3, 0.2, 0.1] : [1, 0, 0, 0]), (s) => (s < 30 ? 2 : 1.9));
    const m = divergenceMarkers(pts, { eps: 0.02, samples: 64 });
    expect(m).toHaveLength(1);
    expect(m[0]).toMatchObject({ from: 4, to: 1, kind: 'divergence' });
    expect(m[0].step).toBeGreaterThanOrEqual(28);
    expect(m[0].step).toBeLessThanOrEqual(30);
    expect(m[0].tokenShare).toBeCloseTo(0.95);
  });

  it('calls it a plain collapse when token entropy fell below the high share too', () => {
    const pts = exact([[0.5, 0.5, 0], [0.5, 0.5, 0], [0.5, 0.5, 0], [1, 0, 0], [1, 0, 0], [1, 0, 0]], [2, 2, 2, 1, 1, 1]);
    const m = divergenceMarkers(pts, { eps: 0.02, samples: 1000, window: 3 });
    expect(m).toEqual([{ step: 4, from: 2, to: 1, tokenShare: 0.5, kind: 'collapse', startAt: 'steps 1–3' }]);
    expect(divergenceMarkers(pts, { eps: 0.02, samples: 1000, window: 3, highShare: 0.4 })[0].kind).toBe('divergence');
  });

  it('hysteresis: a behavior back above ε only counts once significantly above, so it is not re-marked', () => {
    const rows = [[0.5, 0.5], [0.5, 0.5], [1, 0], [1, 0], [1, 0], [0.98, 0.02], [1, 0], [1, 0], [1, 0]];
    expect(divergenceMarkers(exact(rows), { eps: 0.02, samples: 1000, window: 3 }).map((m) => m.step)).toEqual([3]);
    // a lasting recovery (significantly above ε) re-arms the behavior: a later drop is marked again
    const back = [...rows.slice(0, 5), [0.6, 0.4], [0.6, 0.4], [0.6, 0.4], [1, 0], [1, 0], [1, 0]];
    expect(divergenceMarkers(exact(back), { eps: 0.02, samples: 1000, window: 3 }).map((m) => m.step)).toEqual([3, 9]);
  });

  it('does not mark drops from a single behavior (1→0), skips non-finite points, handles empty input', () => {
    expect(divergenceMarkers([], { eps: 0.02, samples: 64 })).toEqual([]);
    expect(divergenceMarkers(exact([[1, 0], [1, 0], [0, 0], [0, 0], [0, 0]]), { eps: 0.02, samples: 1000, window: 3 })).toEqual([]);
    const withNaN = exact([[0.5, 0.5], [NaN, 0.5], [1, 0], [1, 0], [1, 0]]);
    expect(divergenceMarkers(withNaN, { eps: 0.02, samples: 1000, window: 3 }).map((m) => m.step)).toEqual([3]);
  });

  it('describes markers in plain words', () => {
    expect(describeMarker({ step: 5, from: 4, to: 2, tokenShare: 0.95, kind: 'divergence', startAt: 'step 0' }, 'math')).toBe('math: 4→2 behaviors, token entropy still 95 % of step 0');
    expect(describeMarker({ step: 5, from: 4, to: 3, tokenShare: 0.4, kind: 'collapse', startAt: 'step 0' }, 'code')).toBe('code: 4→3 behaviors, token entropy fell too (40 % of step 0)');
  });

  it('the same share reads the same on every marker: 0.7996 is a collapse at "79 %", 0.8004 a divergence at "80 %"', () => {
    const drop = (h: number) => exact([[0.5, 0.5, 0], [0.5, 0.5, 0], [0.5, 0.5, 0], [1, 0, 0], [1, 0, 0], [1, 0, 0]], [2, 2, 2, h, h, h]);
    const low = divergenceMarkers(drop(2 * 0.7996), { eps: 0.02, samples: 1000, window: 3 })[0];
    const high = divergenceMarkers(drop(2 * 0.8004), { eps: 0.02, samples: 1000, window: 3 })[0];
    expect(low.kind).toBe('collapse');
    expect(describeMarker(low, 'math')).toContain('fell too (79 % of steps 1–3)');
    expect(high.kind).toBe('divergence');
    expect(describeMarker(high, 'math')).toContain('still 80 % of steps 1–3');
    // whatever the share, the kind and the words agree: "still p %" only at p ≥ 80
    for (let k = 0; k <= 200; k++) {
      const m = divergenceMarkers(drop((2 * k) / 200), { eps: 0.02, samples: 1000, window: 3 })[0];
      const pct = Number(/(\d+) %/.exec(describeMarker(m, 's'))![1]);
      expect(m.kind === 'divergence').toBe(pct >= 80);
    }
  });

  it('"start" is step 0 when the base\'s token entropy is given (the point the plot labels step 0)', () => {
    const pts = exact([[0.5, 0.5, 0], [0.5, 0.5, 0], [0.5, 0.5, 0], [1, 0, 0], [1, 0, 0], [1, 0, 0]], [1.5, 1.5, 1.5, 1.5, 1.5, 1.5]);
    const m = divergenceMarkers(pts, { eps: 0.02, samples: 1000, window: 3, tokenStart: 2 })[0];
    expect(m).toMatchObject({ tokenShare: 0.75, kind: 'collapse', startAt: 'step 0' });
    expect(describeMarker(m, 'code')).toBe('code: 2→1 behaviors, token entropy fell too (75 % of step 0)');
  });
});
