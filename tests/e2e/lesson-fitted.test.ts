/**
 * Lesson o in real Chromium on WASM, tiny model: the lesson built on a task fitted from the shipped
 * verl example opens on its state with the fitted task's names, its gate and its paragraph, and
 * trains (the custom task's base pretrained in the worker). Screenshot in test-results/.
 */
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, type OpenedPage } from '../browser/harness';
import { ARTIFACTS, TINY_MODEL, ready, stepN } from './lab-page';

describe('lesson o: a gate counted on a log vs trained on the task fitted from it (WASM)', () => {
  let h: OpenedPage;
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    h = await openPage('nogpu', `/?v=1&lesson=o-fitted-gate&${TINY_MODEL}&backend=wasm`);
    await h.page.setViewportSize({ width: 1280, height: 800 });
    await ready(h.page);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('opens on state code of the fitted task with the lesson text, and trains', async () => {
    const page = h.page;
    expect(await page.getByTestId('lesson-text').innerText()).toMatch(/looks like pure gain/);
    // the evidence is one click (or Enter) away
    await page.getByText('How we know').focus();
    await page.keyboard.press('Enter');
    expect(await page.getByTestId('lesson-evidence').innerText()).toMatch(/34 of the 64 turns at step 1 are dropped/);
    const options = await page.locator('section[aria-label="Divergence plot"] select option').allInnerTexts();
    expect(options).toEqual(['average over all states', 'code', 'explain', 'math']);
    expect(await page.locator('section[aria-label="Divergence plot"] select').inputValue()).toBe('code');
    await stepN(page, 2);
    await page.screenshot({ path: `${ARTIFACTS}lesson-o-1280x800.png` });
    expect(h.errors).toEqual([]);
  }, 240_000);
});
