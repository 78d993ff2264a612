/**
 * Every shipped lesson experiment (public/experiments/*.json) runs from the experiments page, as
 * it is: picked in "lesson experiment", created with "Create and train" (no form problem, no page
 * error), stored with exactly the shipped spec (multi-line gates, o's task spec JSON and variant
 * names with commas and "=" included), and its cells train a step. In real Chromium on WASM. The
 * built-in tasks start from their shipped checkpoints, as a class's do; the file with o, whose custom
 * task has none, pretrains briefly (pretrain=20, for every experiment of that file) rather than 400 steps.
 *
 * The form shows the shipped seeds; the test then keeps the first two (TRAINED_SEEDS) before
 * "Create and train", so each variant trains as a population of two in the page's workers (the
 * page's wiring of each spec) rather than all 232 cells of the nine (16 seeds × 3 variants for m):
 * a seed only changes the RNG, and the form's round trip of every shipped spec with all its seeds
 * is checked in Node (src/ui/experiment/experiment.test.ts). The stored spec is the shipped one
 * with exactly those seeds. One experiment (FULL_SIZE) trains as shipped, all its seeds, so the
 * page's largest shipped population still trains here.
 *
 * The nine experiments are split over three test files (shipped-experiments-{1,2,3}.test.ts) so
 * that vitest runs them beside other files; each group's first step costs about the same. The
 * first file checks that the groups cover exactly the shipped files, so a new lesson experiment
 * cannot go untested.
 */
import { readFileSync, readdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExperimentSpec } from '../../src/core/experiment/spec';
import { formFromSpec } from '../../src/ui/experiment/form';
import { openPage, type OpenedPage } from '../browser/harness';
import { scaled } from '../support/speed';
import { storedRun } from './stored';

const DIR = new URL('../../public/experiments/', import.meta.url);
export const SHIPPED_IDS = readdirSync(DIR).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -'.json'.length)).sort();
const shipped = (id: string) => parseExperimentSpec(JSON.parse(readFileSync(new URL(`${id}.json`, DIR), 'utf8')));

/** The three files' experiments, balanced by the time of their first step (l trains all its seeds, o pretrains its own task). */
export const GROUPS = [
  ['o-fitted-gate', 'l-votes-disagree', 'd-at-least-one'],
  ['i-sft-compresses', 'g-stale-weights-503', 'n-dynamic-sampling'],
  ['m-drop-stale', 'f-combine-gating', 'b-clip-higher'],
] as const;

/** Seeds each shipped experiment trains here: its first two (a variant is a population, P > 1, as shipped)... */
const TRAINED_SEEDS = 2;
/** ...but one trains all its seeds: the page's largest shipped population (16 seeds × 2 variants). */
const FULL_SIZE = 'l-votes-disagree';

const step = async (page: Page) => Number(await page.locator('[data-testid=exp-step] b').innerText());

/** File `file`'s share (shipped-experiments-`file`.test.ts): open the experiments page once, then create and train each experiment of the group. */
export function describeShippedExperiments(file: 1 | 2 | 3): void {
  const ids: readonly string[] = GROUPS[file - 1];
  describe(`shipped lesson experiments ${ids.join(', ')} run from the experiments page (WASM)`, () => {
    let h: OpenedPage;
    beforeAll(async () => {
      const custom = ids.some((id) => shipped(id).base.taskSpec !== undefined);
      h = await openPage('nogpu', `/index.html?page=experiments&backend=wasm${custom ? '&pretrain=20' : ''}`);
      await h.page.setViewportSize({ width: 1280, height: 900 });
      await h.page.getByText('No experiment open').waitFor({ timeout: scaled(60_000) });
    }, scaled(180_000));
    afterAll(async () => {
      await h?.close();
    });

    if (file === 1)
      it('the picker lists the nine lesson experiments, and the three files cover exactly them', async () => {
        await expect.poll(() => h.page.getByLabel('lesson experiment').locator('option').count(), { timeout: scaled(30_000) }).toBe(SHIPPED_IDS.length + 1);
        expect(SHIPPED_IDS).toEqual(['b-clip-higher', 'd-at-least-one', 'f-combine-gating', 'g-stale-weights-503', 'i-sft-compresses', 'l-votes-disagree', 'm-drop-stale', 'n-dynamic-sampling', 'o-fitted-gate']);
        expect(GROUPS.flat().sort()).toEqual(SHIPPED_IDS);
      });

    it.each(ids)(`%s: created as shipped, stored as shipped (its first ${TRAINED_SEEDS} seeds but for ${FULL_SIZE}), trains a step`, async (id) => {
      const page = h.page;
      const spec = shipped(id);
      await page.getByLabel('lesson experiment').selectOption(id);
      await expect.poll(() => page.getByLabel('experiment name').inputValue()).toBe(spec.name);
      const seeds = page.getByLabel('seeds', { exact: true });
      expect(await seeds.inputValue()).toBe(formFromSpec(spec).seeds);
      const trained = id === FULL_SIZE ? spec : { ...spec, seeds: spec.seeds.slice(0, TRAINED_SEEDS) };
      await seeds.fill(formFromSpec(trained).seeds);
      await page.getByRole('button', { name: 'Create and train' }).click();
      await page.locator('.title b', { hasText: spec.name }).waitFor({ timeout: scaled(60_000) });
      expect(await page.getByRole('form', { name: 'New experiment' }).getByRole('alert').count()).toBe(0);
      const stored = async () => ((await storedRun(page, 'open')).record as unknown as { spec?: unknown } | null)?.spec ?? null;
      await expect.poll(stored, { timeout: scaled(30_000) }).toEqual(trained);
      // a step, or a failure (an alert, a worker group in phase "error", a stopped cell): fail then, not at the timeout
      await page.waitForFunction(
        () => {
          const status = document.querySelector('[data-testid=exp-status]')?.textContent ?? '';
          const failed = status.split(' · ')[0].split('/').includes('error') || /\bcell \d+: /.test(status) || !!document.querySelector('[role=alert]');
          return failed || Number(document.querySelector('[data-testid=exp-step] b')?.textContent) >= 1;
        },
        null,
        { timeout: scaled(600_000) },
      );
      expect(await page.getByRole('alert').allInnerTexts()).toEqual([]);
      expect(await page.getByTestId('exp-status').innerText()).not.toMatch(/^(\w+\/)*error\b|\bcell \d+: /);
      const pause = page.getByRole('button', { name: 'Pause', exact: true });
      if (await pause.isVisible()) await pause.click();
      expect(await step(page)).toBeGreaterThanOrEqual(1);
      expect(h.errors).toEqual([]);
    }, scaled(900_000));
  });
}
