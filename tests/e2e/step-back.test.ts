/**
 * Step back, in real Chromium on WASM: the transport's "Step back" takes the run to the step before
 * its last one, exactly (session.ts stepBack: from a kept snapshot or the run's start, replayed) —
 * the counter and the charts go back, the frames after it are gone, and the step taken again equals
 * the one taken before bit for bit. The stored run follows: a reload restores it with every step
 * once.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { openPage, type OpenedPage } from '../browser/harness';
import { storedRun } from './stored';
import { TINY_MODEL, exportJson, ready, status, stepCount, stepN, waitStep } from './lab-page';

const URL = `/?v=1&seed=6&${TINY_MODEL}&steps=5000&backend=wasm`;

interface Exported {
  frames: { step: number; scalars: Record<string, number>; series: Record<string, number[]> }[];
}
const deterministic = (e: Exported) => e.frames.map((f) => ({ step: f.step, scalars: f.scalars, series: f.series }));

describe('Step back (WASM)', () => {
  let h: OpenedPage | undefined;
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(({ onTestFailed }) => onTestFailed(() => console.error(`[step-back e2e] errors: ${h?.errors.join(' | ')}\n console: ${h?.console.slice(-8).join(' | ')}`)));

  it('goes back one step exactly: the step taken again equals the first, and the stored run holds every step once', async () => {
    h = await openPage('nogpu', URL);
    const page = h.page;
    await ready(page);
    await stepN(page, 4);
    const first = deterministic(await exportJson<Exported>(page));
    expect(first.map((f) => f.step)).toEqual([1, 2, 3, 4]);
    const back = page.getByRole('button', { name: 'Step back', exact: true });
    await back.click();
    await page.waitForFunction(() => document.querySelector('[data-testid=step] b')?.textContent === '3', null, { timeout: 90_000 });
    await ready(page);
    expect(await status(page)).toContain('stepped back to step 3');
    await back.click();
    await page.waitForFunction(() => document.querySelector('[data-testid=step] b')?.textContent === '2', null, { timeout: 90_000 });
    await ready(page);
    expect(deterministic(await exportJson<Exported>(page))).toEqual(first.slice(0, 2));
    await stepN(page, 2);
    expect(await stepCount(page)).toBe(4);
    expect(deterministic(await exportJson<Exported>(page))).toEqual(first);
    // stored as the page shows it: a reload restores steps 1–4, each once
    await page.waitForFunction(() => true);
    await page.reload();
    await ready(page);
    await waitStep(page, 4);
    expect(await stepCount(page)).toBe(4);
    const stored = await storedRun(page, 'lab-run');
    expect(stored.steps[0]).toEqual([1, 2, 3, 4]);
    expect(deterministic(await exportJson<Exported>(page))).toEqual(first);
  }, 600_000); // ~60 s measured at load 36
});
