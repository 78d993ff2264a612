/**
 * "Make a task from this run" in real Chromium on WASM, tiny model: import the shipped verl example,
 * fit a task (the notes say what the fit cannot know), train it beside the import at seeds 1..N (the
 * experiments' workers, 3 steps): the band and the CLI's words per state, moved by a third seed and
 * the same again for seeds 1..2; forecast from step 17 (2 seeds) against the naive forecast; then
 * open it in the lab: run A trains the fitted task (in the URL as a spec).
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
    // a base that has learned its markers (150 SFT steps) and 32 samples per state: a seed's frame
    // then has a share in every state, which the forecast's per-seed mean needs at every step
    h = await openPage('nogpu', `/?v=1&${TINY_MODEL.replace('behaviorSamples=8', 'behaviorSamples=32').replace('pretrain=20', 'pretrain=150')}&backend=wasm`);
    await h.page.setViewportSize({ width: 1280, height: 800 });
    await ready(h.page);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('fits the verl example, trains its seed band and a forecast beside the import, and opens it in the lab', async () => {
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

    // the seed band: seeds 1..2 as a population in the experiments' workers, 3 steps
    const band = page.getByTestId('fit-band');
    const status = page.getByTestId('fit-sim-status');
    const simulate = async (seeds: number) => {
      await page.getByTestId('band-seeds').fill(String(seeds));
      await page.getByTestId('band-steps').fill('3');
      await page.getByTestId('fit-simulate').click();
      await expect.poll(() => status.innerText(), { timeout: 240_000, interval: 500 }).toMatch(/^trained|failed/);
      expect(await status.innerText()).toMatch(new RegExp(`^trained ${seeds} seeds × 3 steps \\(wasm, \\d+ workers?\\)$`));
      const words = await page.getByTestId('band-words').locator('li').allInnerTexts();
      // the CLI's words (fit-band.ts bandWords): at most 4 behaviors × steps 2–4 per state (a frame
      // has no share where none of a state's samples was a behavior)
      expect(words).toHaveLength(3);
      words.forEach((w, i) => {
        const m = w.match(new RegExp(`^${['code', 'explain', 'math'][i]}: the log is inside the band at (\\d+) of (\\d+) behavior × step points`));
        expect(m, w).not.toBeNull();
        expect(Number(m![2])).toBeGreaterThan(0);
        expect(Number(m![2])).toBeLessThanOrEqual(12);
      });
      // 3 states × 4 behaviors, each a band over steps 2–4 and the log's points at its 20 steps
      const paths = await band.locator('svg path.band').evaluateAll((ps) => ps.map((p) => p.getAttribute('d') ?? ''));
      expect(paths).toHaveLength(12);
      expect(await band.locator('svg circle').count()).toBe(12 * 20);
      return { words, paths };
    };
    const two = await simulate(2);
    await band.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${ARTIFACTS}fit-seed-band.png` });
    const three = await simulate(3);
    // the band is the seeds' training: a third seed moves it
    expect(three.paths).not.toEqual(two.paths);
    expect((await simulate(2)).paths).toEqual(two.paths); // and seeds 1..2 again give the same band

    // the forecast from step 17: fitted on steps ..17, 2 seeds trained for steps 18–20
    await page.getByTestId('forecast-from').selectOption('17');
    await page.getByTestId('forecast-seeds').fill('2');
    await page.getByTestId('forecast-run').click();
    const fstatus = page.getByTestId('forecast-status');
    await expect.poll(() => fstatus.innerText(), { timeout: 240_000, interval: 500 }).toMatch(/^trained|failed/);
    expect(await fstatus.innerText()).toMatch(/^trained 2 seeds × 3 steps/);
    const rows = await page.getByTestId('forecast-table').locator('tbody tr').allInnerTexts();
    expect(rows.map((r) => r.split('\t')[0])).toEqual(['code', 'explain', 'math', 'every state']);
    rows.forEach((r) => expect(r).toMatch(/18–20\t0\.\d{3}\t0\.\d{3}\t0\.\d{3}\t0\.\d{3}\t[+−]0\.\d{3}\t\d of 2/));
    const fwords = await page.getByTestId('forecast-words').locator('li').allInnerTexts();
    expect(fwords[0]).toBe('forecast from step 17, steps 18–20, 2 seeds; error = total variation distance of the behavior shares');
    expect(fwords.at(-1)).toMatch(/^every state: mean error 0\.\d{3} .* vs naive 0\.\d{3}/);
    await page.getByTestId('fit-forecast').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${ARTIFACTS}fit-forecast.png` });

    await page.getByTestId('fit-open').click();
    await expect.poll(() => page.getByTestId('fit-opened').innerText(), { timeout: 60_000 }).toContain('the lab trains "fitted verl"');
    await ready(page);
    await stepN(page, 2);
    await expect.poll(() => page.url()).toContain('spec=');
    await page.getByRole('button', { name: 'Task editor', exact: true }).click();
    expect(await page.getByTestId('task-panel').locator('.in-use').innerText()).toContain('custom: fitted verl');
  }, 900_000);
});
