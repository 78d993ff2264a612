/**
 * Pause while the worker is busy (issue 10 §3): the page shows paused at once ("Play" on the button,
 * "pausing…" on the status line) instead of waiting for the worker; the step in flight completes and
 * is kept, then the status line says "paused at step N" and no frame comes after it. The long step
 * is a busy worker, made from outside through Playwright's handle on it (nothing test-only ships).
 */
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openPage, type OpenedPage } from '../browser/harness';
import { ARTIFACTS, TINY_MODEL, exportSteps, labWorker, ready, status, stepCount, waitStep } from './lab-page';

const TINY = `${TINY_MODEL}&steps=5000`;

describe('Pause with a busy worker (WASM)', () => {
  let h: OpenedPage;
  beforeAll(async () => {
    h = await openPage('nogpu', `/?v=1&${TINY}`);
    await ready(h.page);
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(({ onTestFailed }) => onTestFailed(() => console.error(`[pause e2e] errors: ${h?.errors.join(' | ')}\n console: ${h?.console.slice(-8).join(' | ')}`)));

  it('shows paused at once while the worker is still busy, then stops at the step boundary with every frame kept', async () => {
    const { page } = h;
    await page.locator('.transport .play').click();
    await page.waitForFunction(() => /playing · step \d+/.test(document.querySelector('[data-testid=status]')?.textContent ?? ''), null, { timeout: 90_000 });
    await waitStep(page, 3);
    // the worker is busy for 10 s (like one very long step; under the watchdog's 15 s)
    const w = await labWorker(page);
    let busyDone = false;
    // the worker says (on a BroadcastChannel, which the page hears while the worker is busy) when it enters the loop
    type Busy = { e2eBusy?: Promise<void> };
    await page.evaluate(() => void ((window as Busy).e2eBusy = new Promise<void>((r) => (new BroadcastChannel('e2e-busy').onmessage = () => r()))));
    const busy = w
      .evaluate(() => {
        new BroadcastChannel('e2e-busy').postMessage('busy');
        const t = performance.now();
        while (performance.now() - t < 10_000);
      })
      .then(() => void (busyDone = true));
    busy.catch(() => undefined); // awaited below; a failure before that must not go unhandled
    await page.evaluate(() => (window as Busy).e2eBusy); // the worker reached the busy loop at its next step boundary
    await page.locator('.transport .play').click();
    await page.waitForFunction(() => {
      const play = document.querySelector('.transport .play')?.textContent ?? '';
      return /Play/.test(play) && /pausing… after the step in progress \(now at step \d+\)/.test(document.querySelector('[data-testid=status]')?.textContent ?? '');
    }, null, { timeout: 5_000 });
    expect(busyDone, 'the page must not wait for the worker to show paused').toBe(false);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS}pause-pausing.png`, clip: { x: 0, y: 0, width: 1280, height: 160 } });
    await busy;
    await ready(page);
    const said = await status(page);
    const n = Number(/paused at step (\d+)/.exec(said)?.[1]);
    expect(n, said).toBe(await stepCount(page));
    await page.waitForTimeout(1500);
    expect(await stepCount(page)).toBe(n); // idle: nothing came after the pause
    const steps = await exportSteps(page);
    expect(steps).toEqual(steps.map((_, i) => i + 1));
    expect(steps.at(-1)).toBe(n);
    // Play continues from there: every step once
    await page.locator('.transport .play').click();
    await waitStep(page, n + 3);
    await page.locator('.transport .play').click();
    await ready(page);
    const again = await exportSteps(page);
    expect(again).toEqual(again.map((_, i) => i + 1));
    expect(again.at(-1)).toBe(await stepCount(page));
    expect(h.errors).toEqual([]);
  });
});
