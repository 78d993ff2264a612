// Issue 16 §2: 100,000 seeds were checked in quadratic time (each against every seed before it,
// 5 s). Measured by work, not time: how many array elements the linear searches (includes,
// indexOf, find, findIndex, some) may scan while a spec with n seeds is checked and its cells named.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runIndex } from './bundle';
import { experimentCell, parseExperimentSpec, seedPosition } from './spec';

const SEARCHES = ['includes', 'indexOf', 'lastIndexOf', 'find', 'findIndex', 'some'] as const;

/** Elements the array searches could scan while `fn` runs (each call counts its array's length). */
function scanned(fn: () => void): number {
  let total = 0;
  for (const name of SEARCHES) {
    const original = Array.prototype[name] as (...a: unknown[]) => unknown;
    vi.spyOn(Array.prototype, name).mockImplementation(function (this: unknown[], ...args: unknown[]) {
      total += this.length;
      return original.apply(this, args);
    });
  }
  try {
    fn();
  } finally {
    vi.restoreAllMocks();
  }
  return total;
}

afterEach(() => vi.restoreAllMocks());

describe('many seeds', () => {
  const n = 20_000;
  const seeds = Array.from({ length: n }, (_, i) => i + 1);
  const spec = () => parseExperimentSpec({ version: 1, name: 'many', variants: [{ name: 'a', patch: {} }], seeds, steps: 1 });

  it('a spec with n seeds is checked with work linear in n', () => {
    let parsed: ReturnType<typeof spec> | undefined;
    const work = scanned(() => {
      parsed = spec();
    });
    expect(parsed!.seeds.length).toBe(n);
    expect(work).toBeLessThan(10 * n); // a scan per seed is ~n²/2 = 2e8
  });

  it('duplicates are still found, each named', () => {
    expect(() => parseExperimentSpec({ version: 1, name: 'd', variants: [{ name: 'a' }], seeds: [1, 2, 1, 3, 2], steps: 1 })).toThrow(/seeds\[2\]: duplicate seed 1; seeds\[4\]: duplicate seed 2/);
  });

  it('a run\'s cell index is found without a scan of the seeds', () => {
    const s = spec();
    const found: number[] = [];
    const work = scanned(() => {
      for (let i = 0; i < n; i += 97) found.push(runIndex(s, { variant: 0, seed: seeds[i] }) - i);
    });
    expect(work).toBeLessThan(n); // a scan per lookup is ~n²/194
    expect(new Set(found)).toEqual(new Set([0]));
    expect(seedPosition(s, 0)).toBe(-1);
    expect(seedPosition(s, '1')).toBe(-1);
    expect(experimentCell(s, n - 1).seed).toBe(n);
  });
});
