// The rules of an experiment on several workers: groups (a variant's cells, split in halves for more
// workers), groups handed to page workers, results released in cell order whatever the finishing
// order, and the CLI's pull-as-you-go scheduling.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GroupQueue, InOrder, assignGroups, cellGroups, drainGroups, planWorkers, runOnQueue, runOnWorkers, workerCount } from './jobs';

/** K variants × S seeds, cell index = variant · S + seed position (as spec.ts numbers them). */
const grid = (K: number, S: number) => Array.from({ length: K * S }, (_, index) => ({ index, variant: Math.floor(index / S) }));

describe('experiment jobs', () => {
  it('workerCount: every core by default, never more workers than groups, a bad count refused', () => {
    expect(workerCount(undefined, 8, 32)).toBe(8);
    expect(workerCount(undefined, 8, 3)).toBe(3);
    expect(workerCount(2, 8, 32)).toBe(2);
    expect(workerCount(undefined, 0, 5)).toBe(1);
    expect(workerCount(4, 2, 0)).toBe(1);
    expect(() => workerCount(0, 2, 4)).toThrow(/whole number/);
    expect(() => workerCount(1.5, 2, 4)).toThrow(/whole number/);
  });

  it('cellGroups: a variant per group, split in contiguous halves (largest first) up to the groups asked for', () => {
    expect(cellGroups(grid(2, 4))).toEqual([[0, 1, 2, 3], [4, 5, 6, 7]]);
    expect(cellGroups(grid(2, 4), 3)).toEqual([[0, 1], [2, 3], [4, 5, 6, 7]]);
    expect(cellGroups(grid(2, 4), 4)).toEqual([[0, 1], [2, 3], [4, 5], [6, 7]]);
    expect(cellGroups(grid(2, 16), 8).map((g) => g.length)).toEqual([4, 4, 4, 4, 4, 4, 4, 4]);
    expect(cellGroups(grid(1, 3), 9)).toEqual([[0], [1], [2]]); // never below one cell
    // the cells of a resumed experiment (some finished) keep their variants apart
    expect(cellGroups([{ index: 5, variant: 1 }, { index: 1, variant: 0 }, { index: 7, variant: 1 }])).toEqual([[1], [5, 7]]);
  });

  it('cellGroups and assignGroups cover every cell once, in cell order, one variant per group, no worker empty', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 17 }), fc.integer({ min: 1, max: 16 }), (K, S, W) => {
        const cells = grid(K, S);
        const groups = cellGroups(cells, W);
        expect(groups.flat()).toEqual(cells.map((c) => c.index));
        for (const g of groups) expect(new Set(g.map((i) => cells[i].variant)).size).toBe(1);
        expect(groups.length).toBe(Math.max(K, Math.min(W, K * S)));
        const workers = assignGroups(groups, W);
        expect(workers).toHaveLength(Math.min(W, groups.length));
        expect(workers.flat().sort((a, b) => a - b)).toEqual(cells.map((c) => c.index));
        for (const w of workers) expect(w.length).toBeGreaterThan(0);
        for (const w of workers) expect(w).toEqual([...w].sort((a, b) => a - b));
      }),
    );
  });

  it('assignGroups: each group to the worker with the fewest cells so far', () => {
    expect(assignGroups([[0, 1], [2, 3], [4, 5], [6, 7], [8, 9]], 2)).toEqual([[0, 1, 4, 5, 8, 9], [2, 3, 6, 7]]);
    expect(assignGroups([[0, 1, 2, 3], [4], [5]], 2)).toEqual([[0, 1, 2, 3], [4, 5]]);
  });

  it('planWorkers: a worker per core, each with its share of the cores as threads', () => {
    // a lesson's 2 variants × 16 seeds on 8 cores: 8 workers of 4 seeds, one thread each
    expect(planWorkers(grid(2, 16), 8)).toEqual({ cells: [0, 4, 8, 12, 16, 20, 24, 28].map((a) => [a, a + 1, a + 2, a + 3]), threads: 1 });
    // on 2 cores: today's worker per variant
    expect(planWorkers(grid(2, 16), 2).cells).toEqual([[...Array(16).keys()], [...Array(16).keys()].map((i) => i + 16)]);
    // fewer cells than cores: the spare cores become threads
    expect(planWorkers(grid(1, 2), 8)).toEqual({ cells: [[0], [1]], threads: 4 });
    expect(planWorkers(grid(3, 2), 16, 2).cells).toEqual([[0, 1, 4, 5], [2, 3]]);
  });

  it('InOrder releases results in cell order as soon as every earlier one is in', () => {
    const q = new InOrder<string>([0, 1, 2, 3]);
    expect(q.put(2, 'c')).toEqual([]);
    expect(() => q.all()).toThrow(/4 result\(s\) missing, the first 0/);
    expect(q.put(0, 'a')).toEqual(['a']);
    expect(q.put(1, 'b')).toEqual(['b', 'c']);
    expect(() => q.put(1, 'again')).toThrow(/not awaited/);
    expect(() => q.put(9, 'x')).toThrow(/not awaited/);
    expect(q.put(3, 'd')).toEqual(['d']);
    expect(q.all()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('runOnWorkers: free workers take the next group; results in cell order whatever the finishing order', async () => {
    const groups = [[0], [1], [2], [3], [4], [5]];
    const busy = new Set<number>();
    let most = 0;
    let othersDone = 0;
    let releaseFirst = () => undefined as void;
    const first = new Promise<void>((r) => (releaseFirst = r));
    const took: number[][] = [[], [], []];
    const released: number[] = [];
    const out = await runOnWorkers(groups, 3, async (w, g) => {
      expect(busy.has(w)).toBe(false);
      busy.add(w);
      most = Math.max(most, busy.size);
      took[w].push(g[0]);
      // the first group ends last (after all the others), the others in reverse order of their delays
      if (g[0] === 0) await first;
      else await new Promise((r) => setTimeout(r, 6 - g[0]));
      if (g[0] !== 0 && ++othersDone === 5) releaseFirst();
      busy.delete(w);
      return g.map((c) => `cell ${c}`);
    }, (rs) => released.push(...rs.map((r) => Number(r.split(' ')[1]))));
    expect(out).toEqual(groups.map((g) => `cell ${g[0]}`));
    expect(released).toEqual([0, 1, 2, 3, 4, 5]);
    expect(most).toBe(3);
    expect(took[0]).toEqual([0]); // the slow first group held worker 0 while the others took the rest
    expect(took.flat().sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('runOnWorkers: groups of several cells; a failure stops handing out groups and is thrown', async () => {
    expect(await runOnWorkers([[2, 3], [0, 1]], 2, async (_w, g) => g.map((c) => c * 10))).toEqual([0, 10, 20, 30]);
    const started: number[] = [];
    await expect(
      runOnWorkers([[0], [1], [2], [3]], 1, async (_w, g) => {
        started.push(g[0]);
        if (g[0] === 1) throw new Error('cell 1 broke');
        return [g[0]];
      }),
    ).rejects.toThrow('cell 1 broke');
    expect(started).toEqual([0, 1]);
    await expect(runOnWorkers([[0, 1]], 1, async () => [1])).rejects.toThrow(/1 result\(s\) for 2 cell\(s\)/);
  });

  it('GroupQueue: each group taken once, by whichever queue on the same shared memory asks first; stop (and a failed drain) ends the handing out', async () => {
    const q = new GroupQueue(3);
    const other = new GroupQueue(3, q.shared); // another thread's view of the same queue
    expect([q.next(), other.next(), q.next(), other.next(), q.next()]).toEqual([0, 1, 2, null, null]);
    const r = new GroupQueue(5);
    expect(r.next()).toBe(0);
    new GroupQueue(5, r.shared).stop();
    expect(r.next()).toBeNull();
    // a worker whose group fails stops the queue itself (the other threads must not wait for its message)
    const d = new GroupQueue(4);
    const seen: number[] = [];
    await expect(drainGroups(d, [[0], [1], [2], [3]], async (g) => {
      if (g[0] === 1) throw new Error('group 1 broke');
      return [g[0]];
    }, (g) => seen.push(g))).rejects.toThrow('group 1 broke');
    expect(seen).toEqual([0]);
    expect(new GroupQueue(4, d.shared).next()).toBeNull();
  });

  it('runOnQueue: a runner that drains elsewhere (a worker thread) and one here share the groups; a failure anywhere stops both', async () => {
    const groups = [[0], [1, 2], [3], [4], [5]];
    const took: number[][] = [[], []];
    // the remote runner trains on its own copy of the queue (as a worker thread does from the shared memory)
    const runner = (w: number, delay: number) => (queue: GroupQueue, trained: (g: number, rs: string[]) => void) =>
      drainGroups(new GroupQueue(queue.groups, queue.shared), groups, async (g) => {
        took[w].push(g[0]);
        await new Promise((r) => setTimeout(r, delay));
        return g.map((c) => `cell ${c}`);
      }, trained);
    const released: string[] = [];
    expect(await runOnQueue(groups, [runner(0, 1), runner(1, 3)], (rs) => released.push(...rs))).toEqual([0, 1, 2, 3, 4, 5].map((c) => `cell ${c}`));
    expect(released).toEqual([0, 1, 2, 3, 4, 5].map((c) => `cell ${c}`));
    expect(took.flat().sort()).toEqual([0, 1, 3, 4, 5]);
    expect(took[0].length).toBeGreaterThan(0);
    expect(took[1].length).toBeGreaterThan(0);
    const started: number[] = [];
    const failing = (queue: GroupQueue) => drainGroups(new GroupQueue(queue.groups, queue.shared), groups, async (g) => {
      started.push(g[0]);
      await new Promise((r) => setTimeout(r, 1));
      if (g[0] === 1) throw new Error('group 1 broke');
      return g.map(String);
    }, () => undefined);
    await expect(runOnQueue(groups, [failing, failing])).rejects.toThrow('group 1 broke');
    // groups 0 and 1 in flight at once; at most the next (cell 3) was taken before the failure stopped the queue
    expect(started.sort((a, b) => a - b)).toEqual([0, 1, 3].slice(0, started.length));
    expect(started.length).toBeGreaterThanOrEqual(2);
  });
});
