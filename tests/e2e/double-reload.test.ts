/**
 * A reload that lands before the restore finished (issue 24 §1: "reloading twice quickly at step
 * 35 opened a fresh run"): the second reload restores the run too, at the same step, with the same
 * frames. The first reload's page is caught while its worker replays the stored run (no state kept:
 * a replay from step 0, the longest restore), and reloaded right then.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { openPage, type OpenedPage } from '../browser/harness';
import { storedRun } from './stored';
import { TINY_MODEL, exportJson, ready, status, stepCount, waitStep } from './lab-page';

const URL = `/?v=1&seed=8&${TINY_MODEL}&steps=5000&backend=wasm`;

interface Exported {
  frames: { step: number; scalars: Record<string, number>; series: Record<string, number[]> }[];
}
const deterministic = (e: Exported) => e.frames.map((f) => ({ step: f.step, scalars: f.scalars, series: f.series }));

describe('a reload during the restore of a reload (WASM)', () => {
  let h: OpenedPage | undefined;
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(({ onTestFailed }) => onTestFailed(() => console.error(`[double-reload e2e] errors: ${h?.errors.join(' | ')}\n console: ${h?.console.slice(-8).join(' | ')}`)));

  it('restores the run at the step it had reached, every frame as it was', async () => {
    h = await openPage('nogpu', URL);
    const page = h.page;
    await ready(page);
    await page.getByLabel('keep state').setChecked(false); // a reload then replays from step 0
    await page.locator('.transport .play').click();
    await waitStep(page, 35);
    await page.locator('.transport .play').click();
    await ready(page);
    const n = await stepCount(page);
    const before = deterministic(await exportJson<Exported>(page));
    expect(before.map((f) => f.step)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    await page.waitForFunction(async (last) => {
      // stored up to the last step (the recording writes within ~a second of a step)
      const steps = await new Promise<number>((resolve) => {
        const req = indexedDB.open('invariant-lab');
        req.onsuccess = () => {
          const tx = req.result.transaction(['meta', 'experiments']);
          const id = tx.objectStore('meta').get('lab-run');
          id.onsuccess = () => {
            const rec = tx.objectStore('experiments').get(id.result as string);
            rec.onsuccess = () => resolve((rec.result as { cells: { step: number }[] } | undefined)?.cells[0]?.step ?? 0);
          };
          tx.oncomplete = () => req.result.close();
        };
      });
      return steps >= last;
    }, n, { timeout: 60_000, polling: 250 });

    await page.reload();
    // the first reload's worker replays the stored run: reload again right then
    await page.waitForFunction(() => /replaying the stored run/.test(document.querySelector('[data-testid=status]')?.textContent ?? ''), null, { timeout: 120_000, polling: 'raf' });
    await page.reload();
    await ready(page);
    const said = await status(page);
    expect(said).toMatch(new RegExp(`Restored the run stored in this browser at step ${n}: resumed from step 0 \\(no state was saved\\)`));
    expect(await stepCount(page)).toBe(n);
    expect(deterministic(await exportJson<Exported>(page))).toEqual(before);
    expect((await storedRun(page, 'lab-run')).steps[0]).toEqual(before.map((f) => f.step));
  }, 900_000); // ~90 s measured on an idle machine, 210 s at load 38
});
