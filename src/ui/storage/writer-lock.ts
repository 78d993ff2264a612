/**
 * One writer per stored run, across the tabs of this browser (Web Locks API): the tab that trains a
 * stored run holds the lock named after its id for as long as it writes it; a second tab that opens
 * the same run does not get it and opens the run read-only or as a copy (and says so). The lock goes
 * with the tab (closed, crashed, reloaded). Without Web Locks (older browsers) every tab may write.
 */

/** The part of `navigator.locks` used here (a fake in tests). */
export interface Locks {
  request(name: string, options: { ifAvailable: true }, callback: (lock: unknown) => Promise<void> | void): Promise<unknown>;
  query(): Promise<{ held?: { name?: string }[] }>;
}

export const lockName = (id: string) => `invariant-lab/run/${id}`;

const browserLocks = (): Locks | undefined => (globalThis as { navigator?: { locks?: Locks } }).navigator?.locks;

export interface WriterLock {
  readonly id: string;
  release(): void;
}

/**
 * The writer lock of run `id`, or null when another tab holds it. Resolves as soon as it is known
 * (the lock is then held until release()).
 */
export function claimWriter(id: string, locks: Locks | undefined = browserLocks()): Promise<WriterLock | null> {
  if (!locks) return Promise.resolve({ id, release: () => undefined });
  return new Promise((resolve, reject) => {
    locks
      .request(lockName(id), { ifAvailable: true }, (lock) => {
        if (!lock) return resolve(null);
        // held until release(): the callback's promise is the lock's lifetime
        return new Promise<void>((release) => resolve({ id, release: () => release() }));
      })
      .catch(reject);
  });
}

/** Ids of the runs some tab writes now (their locks are held). */
export async function busyRuns(locks: Locks | undefined = browserLocks()): Promise<Set<string>> {
  if (!locks) return new Set();
  const prefix = lockName('');
  const held = (await locks.query()).held ?? [];
  return new Set(held.map((l) => l.name ?? '').filter((n) => n.startsWith(prefix)).map((n) => n.slice(prefix.length)));
}
