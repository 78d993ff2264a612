/**
 * Reading what the page stored, from IndexedDB itself (not through the page's code): the record a
 * meta key names ('open': the experiments page's open experiment, 'lab-run': the lab's run) and each
 * of its cells' stored frame steps in batch order.
 */
import type { Page } from 'playwright-core';
import { waitUntil } from '../support/poll';

export interface StoredView {
  record: { cells: { weights?: { step: number }; resumed?: { step: number; exact: boolean; from: string }[] }[] } | null;
  steps: number[][];
}

export const storedRun = (page: Page, key: 'open' | 'lab-run'): Promise<StoredView> =>
  page.evaluate(
    (metaKey) =>
      new Promise<StoredView>((resolve, reject) => {
        const req = indexedDB.open('invariant-lab');
        req.onerror = () => reject(req.error);
        req.onsuccess = () => {
          const db = req.result;
          const tx = db.transaction(['experiments', 'frames', 'meta']);
          const id = tx.objectStore('meta').get(metaKey);
          id.onsuccess = () => {
            if (typeof id.result !== 'string') return resolve({ record: null, steps: [] });
            const rec = tx.objectStore('experiments').get(id.result);
            const range = IDBKeyRange.bound([id.result], [id.result, []]);
            const keys = tx.objectStore('frames').getAllKeys(range);
            const batches = tx.objectStore('frames').getAll(range);
            batches.onsuccess = () => {
              const steps: number[][] = [];
              (keys.result as [string, number, number][]).forEach(([, cell], i) => (steps[cell] ??= []).push(...(batches.result[i] as { step: number }[]).map((f) => f.step)));
              resolve({ record: rec.result ?? null, steps });
            };
          };
          tx.oncomplete = () => db.close();
          tx.onerror = () => reject(tx.error);
        };
      }),
    key,
  );

/** Wait until the stored record under `key` holds frames through `step` (the page's last batch is in IndexedDB). */
export const storedThrough = (page: Page, step: number, key: 'open' | 'lab-run' = 'lab-run', timeout = 60_000): Promise<void> =>
  waitUntil(async () => Math.max(0, ...(await storedRun(page, key)).steps.flat()) >= step, { timeout, every: 200, what: `the stored run's frames through step ${step}` });
