// An experiment on several workers (threads of `npm run experiment -- --jobs N`, Web Workers
// of the experiments page): which cells train together on one engine (a group), which worker takes
// which group, and the results put back in cell order whatever order the workers finish in. The CLI
// and the page share these rules. A cell's frames do not depend on its worker or its group: it
// trains on its own engine or as one member of a population, and a member's results are the same
// bit for bit whatever the population's size and other members (src/engine/ensemble.test.ts), so
// every worker count gives the frames of one worker.

export interface PlannedCell {
  index: number;
  variant: number;
}

/** Workers to start: the count asked for (default: every core), never more than there is work. */
export function workerCount(requested: number | undefined, cores: number, groups: number): number {
  const want = requested ?? Math.max(1, Math.floor(cores) || 1);
  if (!Number.isInteger(want) || want < 1) throw new Error(`workers: a whole number ≥ 1 is needed, not ${requested}`);
  return Math.max(1, Math.min(want, groups));
}

/**
 * Cells trained together: each variant's cells (one model shape, one population), split in
 * contiguous halves — the largest group first, the earlier on a tie — until there are at least
 * `minGroups` groups or every group is a single cell. In cell order.
 */
export function cellGroups(cells: readonly PlannedCell[], minGroups = 1): number[][] {
  const byVariant = new Map<number, number[]>();
  for (const c of [...cells].sort((a, b) => a.index - b.index)) byVariant.set(c.variant, [...(byVariant.get(c.variant) ?? []), c.index]);
  const groups = [...byVariant.values()];
  while (groups.length < minGroups) {
    let largest = -1;
    for (let g = 0; g < groups.length; g++) if (groups[g].length > 1 && (largest < 0 || groups[g].length > groups[largest].length)) largest = g;
    if (largest < 0) break;
    const g = groups[largest];
    const half = Math.ceil(g.length / 2);
    groups.splice(largest, 1, g.slice(0, half), g.slice(half));
  }
  return groups;
}

/**
 * Groups handed out once and for all (the page: a worker keeps its cells for play, pause and step):
 * each group in turn to the worker with the fewest cells so far (the first on a tie). Returns each
 * worker's cells in cell order; no worker is left without cells.
 */
export function assignGroups(groups: readonly number[][], workers: number): number[][] {
  const n = workerCount(workers, workers, groups.length);
  const out: number[][] = Array.from({ length: n }, () => []);
  for (const g of groups) {
    let least = 0;
    for (let w = 1; w < n; w++) if (out[w].length < out[least].length) least = w;
    out[least].push(...g);
  }
  return out.map((w) => w.sort((a, b) => a - b));
}

/**
 * The page's workers: one per core (at most `most`, never more than cells), each holding its groups'
 * cells for good, and each worker's share of the cores (its WASM threads).
 */
export function planWorkers(cells: readonly PlannedCell[], cores: number, most?: number): { cells: number[][]; threads: number } {
  const n = workerCount(most, cores, cells.length);
  const workers = assignGroups(cellGroups(cells, n), n);
  return { cells: workers, threads: threadsPerWorker(cores, workers.length) };
}

/** WASM threads of each of `workers` workers on `cores` cores: an even share, one once there are as many workers as cores. */
export function threadsPerWorker(cores: number, workers: number): number {
  return Math.max(1, Math.floor(cores / workers));
}

/**
 * Results that come in any order, released in cell order: `put` returns the results that are now
 * next in line (the CLI prints each cell's summary as soon as every earlier cell has one).
 */
export class InOrder<T> {
  private readonly waiting = new Map<number, T>();
  private next = 0;
  private readonly done: T[] = [];

  /** `order`: the indices in the order they are released (cell indices, ascending). */
  constructor(private readonly order: readonly number[]) {}

  put(index: number, value: T): T[] {
    if (!this.order.includes(index) || this.waiting.has(index) || this.order.indexOf(index) < this.next) throw new Error(`in order: ${index} is not awaited`);
    this.waiting.set(index, value);
    const released: T[] = [];
    while (this.next < this.order.length && this.waiting.has(this.order[this.next])) {
      const key = this.order[this.next++];
      released.push(this.waiting.get(key)!);
      this.waiting.delete(key);
    }
    this.done.push(...released);
    return released;
  }

  /** Every result, in order (throws while some are missing). */
  all(): T[] {
    if (this.next < this.order.length) throw new Error(`in order: ${this.order.length - this.next} result(s) missing, the first ${this.order[this.next]}`);
    return [...this.done];
  }
}

/**
 * The groups not yet taken, shared by every thread that trains them (the CLI's main thread and its
 * worker threads): a counter in shared memory, so that a free worker takes its next group at once,
 * without a message to a thread that may be busy training a group of its own. `stop` ends the
 * handing out (after a failure: each thread finishes the group it holds).
 */
export class GroupQueue {
  private readonly slots: Int32Array;

  /** `shared`: another thread's queue (its `shared`), or none for a new one. */
  constructor(
    readonly groups: number,
    readonly shared = new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT),
  ) {
    this.slots = new Int32Array(shared); // [next group, stopped]
  }

  /** The next group's index, or null once every group is taken or the queue stopped. */
  next(): number | null {
    if (Atomics.load(this.slots, 1)) return null;
    const g = Atomics.add(this.slots, 0, 1);
    return g < this.groups ? g : null;
  }

  stop(): void {
    Atomics.store(this.slots, 1, 1);
  }
}

/**
 * One worker's loop: take the next group from `queue` and train it until none is left; `trained`
 * gets each group's results (one per cell, in the group's order). A failure stops the queue for
 * every worker and is thrown.
 */
export async function drainGroups<R>(queue: GroupQueue, groups: readonly number[][], train: (group: readonly number[]) => Promise<R[]>, trained: (group: number, results: R[]) => void): Promise<void> {
  try {
    for (let g = queue.next(); g !== null; g = queue.next()) trained(g, await train(groups[g]));
  } catch (error) {
    queue.stop();
    throw error;
  }
}

/** A worker: drains `queue` (drainGroups, in this thread or another), calling `trained` for each group it trains. */
export type GroupRunner<R> = (queue: GroupQueue, trained: (group: number, results: R[]) => void) => Promise<void>;

/**
 * Train `groups` on `runners` that each take the next group as soon as they are free (a slow group
 * does not hold the others back). `released` gets the results in cell order as soon as every
 * earlier cell's is in. Returns every cell's result in cell order. The first failure stops handing
 * out groups and is thrown once the groups in flight are done.
 */
export async function runOnQueue<R>(groups: readonly number[][], runners: readonly GroupRunner<R>[], released: (rs: R[]) => void = () => undefined): Promise<R[]> {
  const results = new InOrder<R>(groups.flat().sort((a, b) => a - b));
  const queue = new GroupQueue(groups.length);
  let failure: { error: unknown } | null = null;
  const trained = (g: number, rs: R[]) => {
    if (rs.length !== groups[g].length) throw new Error(`${rs.length} result(s) for ${groups[g].length} cell(s)`);
    groups[g].forEach((cell, i) => released(results.put(cell, rs[i])));
  };
  await Promise.all(runners.map((run) => run(queue, trained).catch((error: unknown) => {
    queue.stop();
    failure ??= { error };
  })));
  if (failure) throw (failure as { error: unknown }).error;
  return results.all();
}

/** runOnQueue on `workers` workers of this thread: `train(worker, group)` returns the group's results. */
export function runOnWorkers<R>(groups: readonly number[][], workers: number, train: (worker: number, group: readonly number[]) => Promise<R[]>, released?: (rs: R[]) => void): Promise<R[]> {
  const n = workerCount(workers, workers, groups.length);
  return runOnQueue(groups, Array.from({ length: n }, (_, w): GroupRunner<R> => (queue, trained) => drainGroups(queue, groups, (g) => train(w, g), trained)), released);
}
