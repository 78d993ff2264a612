/**
 * The watchdog tells a slow worker from a hung one (src/ui/state/watchdog.ts). Opening lesson o from
 * the picker pretrains its fitted task's base in the running worker: 400 SFT steps that never yield
 * to the worker's message loop, so its pings go unanswered for as long as pretraining takes — over
 * the watchdog's 15 s on a loaded machine. The test makes every step slow from outside (the worker's
 * performance.now, read several times per pretraining step, busy-waits), so pretraining takes over 15 s
 * on any machine: the page must wait it out and open the lesson, never say "The training worker
 * failed". Then the worker hangs for good (an endless loop) and the watchdog does declare it dead.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, type OpenedPage } from '../browser/harness';
import { scaled } from '../support/speed';
import { labWorker, ready, status } from './lab-page';

/**
 * Each performance.now() in the worker busy-waits this long (pretraining reads it dozens of times a
 * step), for at most SLOW_TOTAL_MS in all: pretraining then outlasts the watchdog's 15 s anywhere.
 */
const SLOW_MS = 2;
const SLOW_TOTAL_MS = 25_000;

describe('the watchdog: a slow worker lives, a hung one is replaced (WASM)', () => {
  let h: OpenedPage;
  beforeAll(async () => {
    h = await openPage('nogpu', '/?v=1&backend=wasm');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('lesson o opened from the picker pretrains for longer than the watchdog waits, and opens', async () => {
    const page = h.page;
    await ready(page);
    const worker = await labWorker(page);
    await worker.evaluate(([ms, total]) => {
      const real = performance.now.bind(performance);
      let spent = 0;
      performance.now = () => {
        if (spent < total) {
          spent += ms;
          const end = real() + ms;
          while (real() < end); // eslint-disable-line no-empty
        }
        return real();
      };
      (self as unknown as { realNow: () => number }).realNow = real;
    }, [SLOW_MS, SLOW_TOTAL_MS]);
    const t0 = Date.now();
    await page.locator('#lesson-select').selectOption('o-fitted-gate');
    await page.waitForFunction(() => /pretraining the base/.test(document.querySelector('[data-testid=status]')?.textContent ?? ''), null, { timeout: scaled(60_000) });
    const seen: string[] = [];
    for (let s = await status(page); /pretraining|warming|loading|…/.test(s); s = await status(page)) {
      seen.push(s);
      await page.waitForTimeout(500);
    }
    seen.push(await status(page));
    const took = Date.now() - t0;
    await worker.evaluate(() => void (performance.now = (self as unknown as { realNow: () => number }).realNow));
    expect(took).toBeGreaterThan(15_000 + 2_000); // the watchdog's timeout and a ping interval: it was put to the test
    expect(seen.filter((s) => /worker failed/.test(s))).toEqual([]);
    expect(seen.at(-1)).toMatch(/^A gate counted on a log/);
    await ready(page);
  }, scaled(300_000));

  it('a worker that hangs (reports nothing, answers nothing) is declared dead', async () => {
    const page = h.page;
    await ready(page);
    expect(await status(page)).not.toMatch(/worker failed/);
    const worker = await labWorker(page);
    void worker.evaluate(() => void setTimeout(() => { for (;;); })).catch(() => undefined); // eslint-disable-line no-empty
    await page.waitForFunction(() => /training worker failed \(no answer from the worker for 15 s\)/.test(document.querySelector('[data-testid=status]')?.textContent ?? ''), null, { timeout: scaled(60_000) });
  }, scaled(120_000));
});
