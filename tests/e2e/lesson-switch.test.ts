/**
 * What a class sees around a lesson switch and a compare (issue 43 §5), in real Chromium (WASM, tiny
 * model): another lesson scrolls the controls column back to its text and never shows the old run's
 * "finished"; after a fork of a finished run, run B's counter and progress show beside run A's.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openPage, type OpenedPage } from '../browser/harness';
import { scaled } from '../support/speed';
import { TINY_MODEL, ready, status, stepN } from './lab-page';

/** Status lines seen every 40 ms until `done` resolves. */
async function statusesUntil(page: Page, done: Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  let over = false;
  void done.finally(() => (over = true));
  while (!over) {
    seen.push(await status(page));
    await page.waitForTimeout(40);
  }
  return seen;
}

describe('lesson switch and compare (WASM, tiny model)', () => {
  let h: OpenedPage;
  beforeAll(async () => {
    h = await openPage('nogpu', `/?v=1&lesson=c-clip-never-binds&steps=3&${TINY_MODEL}&backend=wasm`);
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(({ onTestFailed }) => onTestFailed(() => console.error(`[lesson-switch e2e] ${h.page.url()}\n  errors: ${h.errors.join(' | ') || 'none'}`)));

  it("a fork of a finished run: run B's counter and progress show beside run A's", async () => {
    const page = h.page;
    await ready(page, scaled(120_000));
    await stepN(page, 3);
    expect(await status(page)).toMatch(/finished/);
    await page.getByRole('button', { name: 'Fork' }).click();
    await page.locator('[data-testid=backend-B]').waitFor();
    await ready(page);
    await page.locator('.transport .speed select').selectOption('2'); // 2 steps/s: B's progress can be read
    await page.locator('.transport .play').click();
    const finished = page.waitForFunction(() => /B: finished/.test(document.querySelector('[data-testid=status]')?.textContent ?? ''), null, { timeout: scaled(60_000) });
    const seen = await statusesUntil(page, finished);
    // A stays finished at its last step; B counts from 0 on a counter of its own and says it plays
    expect(await page.getByTestId('step').innerText()).toBe('A: step 3 / 3');
    expect(await page.getByTestId('step-b').innerText()).toBe('B: step 3 / 3');
    expect(seen.filter((s) => /B: playing · step [12]\b/.test(s)), seen.join('\n')).not.toEqual([]);
    expect(seen.filter((s) => /B: playing/.test(s) && !/finished/.test(s)), 'A says it finished while B plays').toEqual([]);
  }, scaled(180_000));

  it('another lesson: the controls column is back at its top, the old run\'s "finished" never shows', async () => {
    const page = h.page;
    await page.locator('.transport').getByRole('button', { name: 'Close compare' }).click();
    await ready(page);
    await page.locator('#controls').evaluate((el) => (el.scrollTop = el.scrollHeight));
    expect(await page.locator('#controls').evaluate((el) => el.scrollTop)).toBeGreaterThan(100);
    const seen = await statusesUntil(page, page.locator('#lesson-select').selectOption('b-clip-higher').then(() => ready(page, scaled(120_000))));
    // (the first lines may still be lesson c's, from before the choice took effect)
    const underB = seen.filter((s) => s.startsWith('Clip-higher'));
    expect(underB.length).toBeGreaterThan(0);
    expect(underB.filter((s) => /finished/.test(s))).toEqual([]);
    expect(await page.locator('#controls').evaluate((el) => el.scrollTop)).toBe(0);
  }, scaled(180_000));
});
