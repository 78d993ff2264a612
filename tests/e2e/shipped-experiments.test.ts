/**
 * Every shipped lesson experiment (public/experiments/*.json) runs from the experiments page, as
 * it is: picked in "lesson experiment", created with "Create and train" (no form problem, no page
 * error), stored with exactly the shipped spec (multi-line gates, o's task spec JSON and variant
 * names with commas and "=" included), and its cells train a step. In real Chromium on WASM; the
 * base is pretrained briefly (pretrain=20) so that o's custom task does not pretrain 400 steps.
 */
import { readFileSync, readdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExperimentSpec } from '../../src/core/experiment/spec';
import { openPage, type OpenedPage } from '../browser/harness';
import { scaled } from '../support/speed';
import { storedRun } from './stored';

const DIR = new URL('../../public/experiments/', import.meta.url);
const IDS = readdirSync(DIR).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -'.json'.length)).sort();
const shipped = (id: string) => parseExperimentSpec(JSON.parse(readFileSync(new URL(`${id}.json`, DIR), 'utf8')));

const step = async (page: Page) => Number(await page.locator('[data-testid=exp-step] b').innerText());

describe('every shipped lesson experiment runs from the experiments page (WASM)', () => {
  let h: OpenedPage;
  beforeAll(async () => {
    h = await openPage('nogpu', '/index.html?page=experiments&backend=wasm&pretrain=20');
    await h.page.setViewportSize({ width: 1280, height: 900 });
    await h.page.getByText('No experiment open').waitFor({ timeout: scaled(60_000) });
  }, scaled(180_000));
  afterAll(async () => {
    await h?.close();
  });

  it('the picker lists the nine lesson experiments (a file the page could not parse would be left out)', async () => {
    await expect.poll(() => h.page.getByLabel('lesson experiment').locator('option').count(), { timeout: scaled(30_000) }).toBe(IDS.length + 1);
    expect(IDS).toEqual(['b-clip-higher', 'd-at-least-one', 'f-combine-gating', 'g-stale-weights-503', 'i-sft-compresses', 'l-votes-disagree', 'm-drop-stale', 'n-dynamic-sampling', 'o-fitted-gate']);
  });

  it.each(IDS)('%s: created as shipped, stored as shipped, trains a step', async (id) => {
    const page = h.page;
    const spec = shipped(id);
    await page.getByLabel('lesson experiment').selectOption(id);
    await expect.poll(() => page.getByLabel('experiment name').inputValue()).toBe(spec.name);
    await page.getByRole('button', { name: 'Create and train' }).click();
    await page.locator('.title b', { hasText: spec.name }).waitFor({ timeout: scaled(60_000) });
    expect(await page.getByRole('form', { name: 'New experiment' }).getByRole('alert').count()).toBe(0);
    const stored = async () => ((await storedRun(page, 'open')).record as unknown as { spec?: unknown } | null)?.spec ?? null;
    await expect.poll(stored, { timeout: scaled(30_000) }).toEqual(spec);
    await page.waitForFunction(() => Number(document.querySelector('[data-testid=exp-step] b')?.textContent) >= 1, null, { timeout: scaled(600_000) });
    const pause = page.getByRole('button', { name: 'Pause', exact: true });
    if (await pause.isVisible()) await pause.click();
    expect(await step(page)).toBeGreaterThanOrEqual(1);
    expect(h.errors).toEqual([]);
  }, scaled(900_000));
});
