/**
 * The lab's run storage in real Chromium (WASM, a tiny model): one writer per stored run across two
 * tabs of one browser (Web Locks), a reload in the middle of playing keeps every step the page
 * showed, and a full disk (QuotaExceededError from IndexedDB's put, injected before the page loads)
 * pauses recording with a message that says what is stored, and recording resumes once there is space.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { openPage, type OpenedPage } from '../browser/harness';
import { waitUntil } from '../support/poll';
import { ARTIFACTS, TINY_MODEL, exportSteps, ready, status, stepN, waitStep } from './lab-page';
import { storedThrough } from './stored';

const URL_A = `/?v=1&seed=4&${TINY_MODEL}&steps=5000&backend=wasm`;

/** Every stored lab run's frame steps, read straight from IndexedDB. */
function storedSteps(page: Page): Promise<Record<string, number[]>> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open('invariant-lab');
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const all = <T,>(store: string): Promise<T[]> =>
      new Promise((resolve, reject) => {
        const req = db.transaction(store).objectStore(store).getAll();
        req.onsuccess = () => resolve(req.result as T[]);
        req.onerror = () => reject(req.error);
      });
    const records = await all<{ id: string; kind: string }>('experiments');
    const keys = await new Promise<IDBValidKey[]>((resolve, reject) => {
      const req = db.transaction('frames').objectStore('frames').getAllKeys();
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const batches = await all<{ step: number }[]>('frames');
    db.close();
    const out: Record<string, number[]> = {};
    for (const r of records) if (r.kind === 'run') out[r.id] = [];
    keys.forEach((k, i) => {
      const id = (k as [string, number, number])[0];
      out[id]?.push(...batches[i].map((f) => f.step));
    });
    return out;
  });
}

const restoredAt = async (page: Page): Promise<number> => {
  const said = await status(page);
  const m = /^Restored the run stored in this browser at step (\d+)/.exec(said);
  expect(m, said).not.toBeNull();
  return Number(m![1]);
};

describe('the lab run in storage (WASM)', () => {
  let h: OpenedPage | undefined;
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') console.error(`[storage e2e] errors: ${h?.errors.join(' | ')}\n console: ${h?.console.slice(-8).join(' | ')}`);
    await h?.close();
    h = undefined;
  });

  it('two tabs on one stored run: the second records a copy and says so; each stored run keeps its steps in order', async () => {
    h = await openPage('nogpu', URL_A);
    const a = h.page;
    await ready(a);
    await stepN(a, 12);
    await storedThrough(a, 12); // the last batch reaches IndexedDB
    const b = await h.context.newPage();
    await b.goto(h.server.url + URL_A, { waitUntil: 'load' });
    await ready(b);
    const from = await restoredAt(b); // the same run, restored in the second tab
    expect(from).toBe(12);
    const copy = b.getByTestId('recording-problem');
    await copy.waitFor({ timeout: 60_000 });
    expect(await copy.getAttribute('data-state')).toBe('copy');
    expect(await copy.innerText()).toMatch(/being recorded by another tab of the lab\. This tab stores it as a copy .* the same up to step 12/);
    await stepN(b, 3);
    await stepN(a, 3);
    // both stored runs (the first tab's and the second's copy) have their last batch in IndexedDB
    await waitUntil(async () => { const r = Object.values(await storedSteps(a)); return r.length === 2 && r.every((s) => s.at(-1) === 15); }, { timeout: 60_000, every: 200, what: 'both stored runs through step 15' });
    mkdirSync(ARTIFACTS, { recursive: true });
    await b.screenshot({ path: `${ARTIFACTS}storage-second-tab.png` });
    const runs = Object.values(await storedSteps(a));
    const upTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
    // the first tab's run and the second tab's copy, each 1..15 once (never 13, 14, 15, 13, …)
    expect(runs.map((s) => s.join(',')).sort()).toEqual([upTo(15).join(','), upTo(15).join(',')]);
    expect(h.errors).toEqual([]);
  }, 600_000);

  it('a reload in the middle of playing keeps every step the page showed', async () => {
    h = await openPage('nogpu', URL_A);
    const page = h.page;
    await ready(page);
    await page.locator('.transport .play').click();
    await waitStep(page, 20);
    // the frames the page holds (the counter follows the worker's status and may be a step ahead)
    const shown = (await exportSteps(page)).at(-1)!;
    await page.reload(); // still playing: what is pending is written on pagehide
    await ready(page, 180_000);
    expect(await restoredAt(page)).toBeGreaterThanOrEqual(shown);
    expect(h.errors).toEqual([]);
  }, 600_000);

  it('a full disk says which steps are stored and offers the Runs panel; recording resumes when there is space', async () => {
    h = await openPage('nogpu', '/tests/browser/probe.html');
    // a disk that fills on request: IndexedDB's put of frames throws QuotaExceededError, as Chromium's does
    await h.context.addInitScript(() => {
      const put = IDBObjectStore.prototype.put;
      IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
        if (this.name === 'frames' && (window as { diskFull?: boolean }).diskFull) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
        return put.apply(this, args);
      };
    });
    const page = h.page;
    await page.goto(h.server.url + URL_A, { waitUntil: 'load' });
    await ready(page);
    await stepN(page, 5);
    await storedThrough(page, 5);
    await page.evaluate(() => ((window as { diskFull?: boolean }).diskFull = true));
    await stepN(page, 3);
    const problem = page.getByTestId('recording-problem');
    await problem.waitFor({ timeout: 60_000 });
    expect(await problem.getAttribute('data-state')).toBe('full');
    expect(await problem.innerText()).toMatch(/^Browser storage is full: steps 1–5 of this run are stored; the steps after it stay in this tab/);
    expect(await problem.getByRole('link', { name: 'Runs panel' }).getAttribute('href')).toBe('?page=experiments');
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS}storage-full.png` });
    await page.evaluate(() => ((window as { diskFull?: boolean }).diskFull = false)); // space again
    await problem.getByRole('button', { name: 'Retry now' }).click();
    await problem.waitFor({ state: 'detached', timeout: 60_000 });
    await storedThrough(page, 8);
    await page.reload();
    await ready(page);
    expect(await restoredAt(page)).toBe(8); // every step (before: recording stopped for good at the first error)
    expect(h.errors).toEqual([]);
  }, 600_000);
});
