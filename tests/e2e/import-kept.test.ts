/**
 * The import view across a reload (issue 24 §4), in real Chromium: a rules file's `missing` is
 * entered in the states form, the import (files, rules, the measured run) comes back after a
 * reload like the task and gate drafts, the behavior caption describes the import, and panel ①
 * lists only series the import has.
 */
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, type OpenedPage } from '../browser/harness';
import { ARTIFACTS, TINY_MODEL } from './lab-page';

describe('the import across a reload', () => {
  let h: OpenedPage | undefined;
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    h = await openPage('nogpu', `/index.html?backend=wasm&${TINY_MODEL}`);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('missing is a field of the states form; files, rules and the measured run survive a reload', async () => {
    const page = h!.page;
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByText('Import real rollouts').click();
    await page.locator('[data-testid=import-panel] .ex').getByRole('button', { name: 'verl', exact: true }).click();
    await page.waitForSelector('[data-testid=import-format]', { timeout: 60_000 });
    // a rules file as written: math prompts match no capture and are named by `missing`
    await page.getByLabel('State regex').fill('state=(code|explain)');
    await page.getByLabel('State when missing').fill('math');
    await page.locator('[data-testid=import-measure]').click();
    await page.waitForSelector('[data-testid=imported-run]', { timeout: 120_000 });
    const summary = await page.locator('[data-testid=import-summary]').innerText();
    expect(summary).toMatch(/states (code, explain, math|math, code, explain|[a-z, ]*math[a-z, ]*) ·/);
    expect(summary).not.toContain('unknown');
    const caption = await page.locator('[data-testid=imported-run] [data-view=behavior]').innerText();
    expect(caption).toMatch(/counted from the imported log: [\d–]+ samples per state per step/);
    expect(caption).not.toContain('Monte Carlo');
    // panel ①: no series the import does not have (its legend lists drawn series only)
    const card = page.locator('[data-testid=imported-run] section[aria-label="The four invariants"] .card').first();
    expect(await card.innerText()).not.toContain('support/behavior_mutual_info');

    await page.reload();
    await page.waitForSelector('[data-testid=import-kept]', { timeout: 60_000 });
    expect(await page.locator('[data-testid=import-kept]').innerText()).toMatch(/Kept across the reload: 20 files and the rules/);
    expect(await page.getByLabel('State regex').inputValue()).toBe('state=(code|explain)');
    expect(await page.getByLabel('State when missing').inputValue()).toBe('math');
    await page.waitForSelector('[data-testid=imported-run]', { timeout: 120_000 });
    expect(await page.locator('[data-testid=import-summary]').innerText()).toBe(summary);
    await page.locator('[data-testid=import-panel] .body').screenshot({ path: `${ARTIFACTS}import-kept.png` });
    expect(h!.errors).toEqual([]);
  }, 400_000);
});
