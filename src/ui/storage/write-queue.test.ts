// The write queue under both recorders, on a fake writer of numbered steps whose store, like both
// real ones, takes only steps past the last it holds: batching (one write in flight, everything
// handed over meanwhile in the next one), the page-leave write beside the one in flight, no step
// stored twice, a full disk paused and retried, any other failure a stop.
import { describe, expect, it } from 'vitest';
import { scaled } from '../../../tests/support/speed';
import { WriteQueue, type QueuedWriter } from './write-queue';

const until = async (done: () => boolean) => {
  for (let t0 = Date.now(); !done(); await new Promise((r) => setTimeout(r, 2))) if (Date.now() - t0 > scaled(20_000)) throw new Error('timed out');
};

/** A writer of steps 1, 2, …: each write takes every step handed over and not stored yet. */
function steps(o: { failWith?: () => unknown } = {}) {
  const stored: number[] = [];
  const writes: { leaving: boolean; steps: number[] }[] = [];
  const said: string[] = [];
  let handed = 0;
  let hold: Promise<void> | null = null;
  let release = (): void => undefined;
  let failures = 0;
  let holdLeaving = false;
  const writer: QueuedWriter = {
    pending: () => handed > (stored.at(-1) ?? 0),
    async write(leaving) {
      const sent = Array.from({ length: handed - (stored.at(-1) ?? 0) }, (_, i) => (stored.at(-1) ?? 0) + i + 1);
      writes.push({ leaving, steps: sent });
      if (hold && (!leaving || holdLeaving)) await hold;
      if (o.failWith && failures-- > 0) throw o.failWith();
      stored.push(...sent.filter((s) => s > (stored.at(-1) ?? 0))); // the store's rule: only past what it holds
    },
    full: (e, ms) => void said.push(`full ${ms}: ${e.message}`),
    recovered: () => void said.push('recovered'),
    failed: (e) => void said.push(`failed: ${e.message}`),
  };
  let leave = (): void => undefined;
  const queue = new WriteQueue(writer, { doing: 'testing', retryMs: 20, leave: (flush) => ((leave = flush), () => (leave = () => undefined)) });
  return {
    queue, stored, writes, said,
    hand(n: number) {
      handed = n;
      queue.kick();
    },
    /** Page-leave writes wait too when `leaving`. */
    holdWrites(leaving = false) {
      holdLeaving = leaving;
      hold = new Promise((r) => (release = r));
    },
    /** Steps handed over without a kick (a page that goes away before its next write). */
    handQuietly: (n: number) => void (handed = n),
    release: () => {
      hold = null;
      release();
    },
    leave: () => leave(),
    failNext: (n: number) => void (failures = n),
  };
}

describe('WriteQueue', () => {
  it('one write in flight: everything handed over meanwhile goes in one next write', async () => {
    const w = steps();
    w.holdWrites();
    w.hand(1);
    for (let n = 2; n <= 6; n++) w.hand(n);
    expect(w.writes).toHaveLength(1);
    w.release();
    await w.queue.written();
    expect(w.writes.map((x) => x.steps)).toEqual([[1], [2, 3, 4, 5, 6]]);
    expect(w.stored).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('the page going away writes everything pending at once, beside the write in flight; no step is stored twice', async () => {
    const w = steps();
    w.holdWrites();
    w.hand(2);
    w.hand(5);
    w.leave();
    expect(w.writes.map((x) => [x.leaving, x.steps])).toEqual([[false, [1, 2]], [true, [1, 2, 3, 4, 5]]]);
    await until(() => w.stored.length === 5); // the page-leave write landed while the other still waits
    w.hand(7); // no regular write starts beside the one in flight
    expect(w.writes).toHaveLength(2);
    w.release();
    await w.queue.written();
    expect(w.stored).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(w.writes.at(-1)).toEqual({ leaving: false, steps: [6, 7] });
    w.queue.close();
    w.leave(); // unsubscribed
    expect(w.writes).toHaveLength(3);
  });

  it('no regular write starts while a page-leave write is under way; it follows with what came after', async () => {
    const w = steps();
    w.holdWrites(true);
    w.handQuietly(3);
    w.leave();
    w.hand(4);
    expect(w.writes).toEqual([{ leaving: true, steps: [1, 2, 3] }]);
    w.release();
    await until(() => w.stored.length === 4);
    await w.queue.written();
    expect(w.writes.map((x) => x.steps)).toEqual([[1, 2, 3], [4]]);
  });

  it('a full disk pauses writing, says so once, and a retry after retryMs stores every pending step', async () => {
    const w = steps({ failWith: () => Object.assign(new Error('quota exceeded'), { name: 'QuotaExceededError' }) });
    w.failNext(1);
    w.hand(3);
    await w.queue.written();
    expect(w.said).toHaveLength(1);
    expect(w.said[0]).toMatch(/^full 20: /);
    w.hand(4);
    expect(w.writes).toHaveLength(1); // paused: nothing is tried before the retry
    await until(() => w.said.includes('recovered'));
    await w.queue.written();
    expect(w.stored).toEqual([1, 2, 3, 4]);
    expect(w.writes.map((x) => x.steps)).toEqual([[1, 2, 3], [1, 2, 3, 4]]);
    expect(w.said.slice(1)).toEqual(['recovered']);
  });

  it('any other failure stops it: nothing more is written', async () => {
    const w = steps({ failWith: () => new Error('disk on fire') });
    w.failNext(1);
    w.hand(1);
    await w.queue.written();
    expect(w.said).toHaveLength(1);
    expect(w.said[0]).toMatch(/^failed: .*testing.*disk on fire/);
    w.hand(2);
    w.leave();
    await w.queue.written();
    expect(w.writes).toHaveLength(1);
    expect(w.stored).toEqual([]);
  });
});
