/**
 * Recovery in real Chromium: a lab worker that throws an uncaught error, or that vanishes without a
 * word (self.close()), is detected (error event; watchdog), reported on the status line and replaced
 * by a worker that resumes from the snapshot the page kept (weights, optimizer state, RNG streams)
 * and replays the steps after it, checked bit for bit. The faults are injected from outside
 * through Playwright's handle on the worker: nothing test-only ships in the site.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openPage, type OpenedPage } from '../browser/harness';
import { TINY_MODEL, exportSteps, labWorker, ready, status, stepCount, waitStep } from './lab-page';

const TINY = `${TINY_MODEL}&steps=5000`;

async function play(page: Page): Promise<void> {
  await page.locator('.transport .play').click();
}

describe('recovery from a failed lab worker (WASM)', () => {
  let h: OpenedPage;
  beforeAll(async () => {
    h = await openPage('nogpu', `/?v=1&${TINY}`);
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(({ onTestFailed }) => onTestFailed(() => console.error(`[recovery e2e] errors: ${h?.errors.join(' | ')}\n console: ${h?.console.slice(-8).join(' | ')}`)));

  it('an uncaught error in the worker: said on the status line, resumed from the kept weights, Play continues', async () => {
    await ready(h.page);
    await play(h.page);
    await waitStep(h.page, 30); // a snapshot is kept every 25 steps
    const w = await labWorker(h.page);
    await w.evaluate(() => {
      setTimeout(() => {
        throw new Error('injected fault');
      });
    });
    await h.page.waitForFunction(() => /training worker failed/.test(document.querySelector('[data-testid=status]')?.textContent ?? ''), null, { timeout: 60_000 });
    await ready(h.page);
    const said = await status(h.page);
    const m = /training worker failed \(uncaught error in the worker: Error: injected fault\) at step (\d+): resumed from the weights, optimizer state and random streams saved at step (\d+)(?:, then replayed steps (\d+)–(\d+))?/.exec(said);
    expect(m, said).not.toBeNull();
    const [failedAt, from] = [Number(m![1]), Number(m![2])];
    const to = m![4] ? Number(m![4]) : from;
    expect(from).toBeGreaterThanOrEqual(25);
    expect(to).toBeLessThanOrEqual(failedAt);
    // every frame the page had is kept: the worker replayed up to it and checked the last one
    expect(await stepCount(h.page)).toBe(to);
    if (to > from) expect(said).toContain(`The replayed step ${to} equals the stored one bit for bit.`);
    expect(await h.page.locator('.transport .play').innerText()).toMatch(/Play/);
    await play(h.page);
    await waitStep(h.page, from + 10);
    await h.page.getByRole('button', { name: 'Pause' }).click();
    await ready(h.page);
    const steps = await exportSteps(h.page);
    // no step twice, none missing
    expect(steps).toEqual(steps.map((_, i) => i + 1));
  });

  it('a worker that vanishes silently is caught by the watchdog and replaced', async () => {
    const before = await stepCount(h.page);
    await play(h.page);
    await waitStep(h.page, before + 5);
    const w = await labWorker(h.page);
    void w.evaluate(() => self.close()).catch(() => undefined);
    // Pause pressed on the silent worker: the call rejects once the watchdog gives up on it
    await h.page.locator('.transport .play').click();
    await h.page.waitForFunction(() => /training worker failed \(no answer/.test(document.querySelector('[data-testid=status]')?.textContent ?? ''), null, { timeout: 90_000 });
    await ready(h.page);
    // the recovery says what happened; no leftover "lab worker A stopped" from the rejected call
    expect(await status(h.page)).not.toMatch(/lab worker A stopped/);
    const at = await stepCount(h.page);
    await play(h.page);
    await waitStep(h.page, at + 3);
    await h.page.getByRole('button', { name: 'Pause' }).click();
    await ready(h.page);
    expect(h.errors.filter((e) => !/injected fault/.test(e))).toEqual([]);
  });
});
