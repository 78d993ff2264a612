import { describe, expect, it } from 'vitest';
import { Rng, makeStreams, stream } from './rng';

describe('rng', () => {
  it('is deterministic and streams are independent', () => {
    const a = makeStreams(7);
    const b = makeStreams(7);
    const xs = Array.from({ length: 5 }, () => a.sampling.next());
    for (let i = 0; i < 100; i++) b.env.next();
    expect(Array.from({ length: 5 }, () => b.sampling.next())).toEqual(xs);
    expect(stream(8, 'sampling').next()).not.toBe(stream(7, 'sampling').next());
  });
  it('uniform mean and categorical frequencies', () => {
    const r = new Rng(1);
    let s = 0;
    for (let i = 0; i < 20000; i++) s += r.next();
    expect(s / 20000).toBeGreaterThan(0.49);
    expect(s / 20000).toBeLessThan(0.51);
    const c = [0, 0, 0];
    for (let i = 0; i < 30000; i++) c[r.categorical([1, 2, 3])]++;
    expect(c[2] / 30000).toBeGreaterThan(0.48);
    expect(c[2] / 30000).toBeLessThan(0.52);
    const u = r.uniforms(1000);
    expect(Math.max(...u)).toBeLessThan(1);
  });
});
