/**
 * "Make a task from this run" in real Chromium on WASM, tiny model: import the shipped verl example,
 * fit a task (the notes say what the fit cannot know), train it beside the import (a lab worker of
 * its own, the import's 20 steps) so each state's imported curves have their simulated partners on
 * the same axes, then open it in the lab: run A trains the fitted task (in the URL as a spec).
 * Screenshots go to test-results/.
 */
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, type OpenedPage } from '../browser/harness';
import { ARTIFACTS, TINY_MODEL, ready, stepN } from './lab-page';

describe('a task fitted from an import (WASM)', () => {
  let h: OpenedPage;
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    h = await openPage('nogpu', `/?v=1&${TINY_MODEL}&backend=wasm`);
    await h.page.setViewportSize({ width: 1280, height: 800 });
    await ready(h.page);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('fits the verl example, trains it beside the import, and opens it in the lab', async () => {
    const page = h.page;
    await page.getByText('Import real rollouts').click();
    await page.getByTestId('import-panel').getByRole('button', { name: 'verl', exact: true }).click();
    await page.waitForSelector('[data-testid=import-format]', { timeout: 60_000 });
    await page.getByTestId('import-measure').click();
    await page.waitForSelector('[data-testid=imported-run]', { timeout: 60_000 });

    await page.getByTestId('fit-make').click();
    const summary = await page.getByTestId('fit-summary').innerText();
    expect(summary).toMatch(/fitted verl.*single-turn, 3 states \(code, explain, math\), 4 behaviors \(decompose, direct, search-first, verify\)/);
    // what the fit cannot know is asked, by field
    expect(await page.getByTestId('fit-asks').innerText()).toMatch(/states\[\]\.gold.*highest expected vote/s);
    // the token level, log vs fitted, per state × behavior (FitTokens.svelte)
    const tokens = page.getByTestId('fit-tokens');
    await tokens.locator('summary').click();
    expect(await tokens.getByTestId('fit-tokens-row').count()).toBe(12);
    expect(await tokens.innerText()).toMatch(/marker \+ round\(\(L − 5\)·s\) fillers, s = 1/);
    await tokens.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${ARTIFACTS}fit-tokens.png` });

    await page.getByTestId('fit-simulate').click();
    const status = page.getByTestId('fit-sim-status');
    await expect.poll(() => status.innerText(), { timeout: 180_000, interval: 500 }).toMatch(/^trained 20 steps|failed/);
    expect(await status.innerText()).toBe('trained 20 steps');
    const chart = page.getByTestId('fit-compare');
    // one panel per state, each with solid (imported) and dashed (simulated) curves of every behavior
    const curves = async (dashed: boolean) =>
      (await chart.locator(dashed ? 'svg path[stroke-dasharray]' : 'svg path[fill=none]:not([stroke-dasharray])').evaluateAll((ps) => ps.map((p) => (p.getAttribute('d') ?? '').split('L').length)));
    // every curve (4 behaviors and "no behavior" per state) has a point per step: 20 vertices
    expect((await curves(true)).filter((n) => n >= 20).length).toBe(3 * 5);
    expect((await curves(false)).filter((n) => n >= 20).length).toBe(3 * 5);
    await chart.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${ARTIFACTS}fit-beside-import.png` });
    // one state large (a projector)
    await page.getByLabel('State of the fit comparison').selectOption('math');
    expect((await curves(true)).filter((n) => n >= 20).length).toBe(5);
    await page.getByLabel('State of the fit comparison').selectOption('all');

    await page.getByTestId('fit-open').click();
    await expect.poll(() => page.getByTestId('fit-opened').innerText(), { timeout: 60_000 }).toContain('the lab trains "fitted verl"');
    await ready(page);
    await stepN(page, 2);
    await expect.poll(() => page.url()).toContain('spec=');
    await page.getByRole('button', { name: 'Task editor', exact: true }).click();
    expect(await page.getByTestId('task-panel').locator('.in-use').innerText()).toContain('custom: fitted verl');
  }, 400_000);
});
