/**
 * The gate editor in real Chromium on WASM (WebGPU disabled), tiny model, a few steps: a bad rule
 * shows the core's message at its line and character and changes nothing (text kept, run's gate
 * unchanged, training goes on); a good rule shows its counterfactual funnel on the run's traced
 * samples, Apply puts it on the timeline and in the URL, and reloading that URL restores it.
 * Screenshots of the editor and the replay at 1280x720 go to test-results/.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openPage, type OpenedPage } from '../browser/harness';
import { ADAPTERS } from '../../src/core/gates/export/adapters/index';
import { ARTIFACTS, TINY_MODEL, ready, stepCount } from './lab-page';

const TINY = `${TINY_MODEL}&backend=wasm`;

/** Tiny model + small batches; `pretrain` forces a short in-worker pretraining (no checkpoint fits). */
const GOOD = 'votes_pos > 0 && votes_neg > 0 => drop # votes disagree\ntrue => mask1 rl # the rest';

async function stepN(page: Page, n: number): Promise<number> {
  const before = await stepCount(page);
  await page.getByLabel('Steps per Step-N press').fill(String(n));
  await page.getByRole('button', { name: `Step ${n}`, exact: true }).click();
  await page.waitForFunction((k) => Number(document.querySelector('[data-testid=step] b')?.textContent) >= k, before + n, { timeout: 60_000 });
  await ready(page);
  return stepCount(page);
}

const editor = (page: Page) => page.locator('#gate-text');
/** The funnel table's cells of a row: [gate in use, draft, change]. */
async function funnelRow(page: Page, label: string): Promise<string[]> {
  return page.locator('[data-testid=replay-funnel] tr', { has: page.getByRole('rowheader', { name: label, exact: true }) }).locator('td').allInnerTexts();
}

describe('gate editor (WASM)', () => {
  let h: OpenedPage;
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    h = await openPage('nogpu', `/?v=1&${TINY}`);
    await ready(h.page);
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(({ onTestFailed }) =>
    onTestFailed(() => console.error(`[gate e2e] url ${h?.page.url()}\n  errors: ${h?.errors.join(' | ') || 'none'}\n  console: ${h?.console.slice(-5).join(' | ')}`)),
  );

  it('a bad rule: the message names line, character and reason; nothing is lost or applied; training goes on', async () => {
    const page = h.page;
    await stepN(page, 2);
    await page.getByRole('button', { name: 'Gate editor' }).click();
    // the built-in gate in use is the starting draft, and it is replayed on the traced samples
    expect(await editor(page).inputValue()).toContain('=> mask1 rl # effective');
    await page.locator('[data-testid=replay-over]').waitFor();
    const bad = 'true => mask1 rl\nsocre > 0 => drop # typo';
    await editor(page).fill(bad);
    const problems = page.locator('[data-testid=gate-problems]');
    await problems.getByText('line 2, character 1: unknown field "socre"; did you mean "score"?').waitFor();
    expect(await page.locator('[data-testid=gate-apply-run]').isDisabled()).toBe(true);
    expect(await editor(page).inputValue()).toBe(bad);
    await page.locator('[data-testid=gate-panel]').screenshot({ path: `${ARTIFACTS}gate-editor-error.png` });
    // the run's gate is unchanged and it still trains
    const before = await stepCount(page);
    expect(await stepN(page, 1)).toBe(before + 1);
    await page.getByRole('button', { name: 'Play' }).click();
    await page.waitForFunction((k) => Number(document.querySelector('[data-testid=step] b')?.textContent) >= k, before + 3, { timeout: 60_000 });
    await page.getByRole('button', { name: 'Pause' }).click();
    await ready(page);
    expect(page.url()).not.toContain('gate=');
    expect(await page.locator('[data-testid=timeline]').innerText()).not.toMatch(/Gate|gate/);
    expect(await editor(page).inputValue()).toBe(bad);
    // closing and reopening the editor keeps the draft
    await page.getByRole('button', { name: 'Close the gate editor' }).click();
    await page.getByRole('button', { name: 'Gate editor' }).click();
    expect(await editor(page).inputValue()).toBe(bad);
    // loading a built-in gate over it keeps it one step back
    await page.getByLabel('Load a built-in gate').selectOption('OPD');
    expect(await editor(page).inputValue()).toContain('# hint accepted');
    await page.getByRole('button', { name: 'Back to my previous draft' }).click();
    expect(await editor(page).inputValue()).toBe(bad);
  });

  it('completes a field name while typing', async () => {
    const page = h.page;
    await editor(page).fill('');
    await editor(page).pressSequentially('votes_n');
    const list = page.getByRole('listbox', { name: 'Field names' });
    await list.getByRole('option').first().waitFor();
    expect(await list.getByRole('option').allInnerTexts()).toEqual([expect.stringMatching(/^votes_neg number/)]);
    // a screenshot with the field reference open and the suggestions for "hint" showing
    await page.locator('[data-testid=gate-panel]').getByText('Field reference').click();
    await editor(page).focus();
    await editor(page).press('End');
    await editor(page).pressSequentially(' > 0 && hint');
    // the blur (the click above) must not close the list once the editor has the focus again
    await page.waitForTimeout(400);
    await list.getByRole('option', { name: /hint_accepted/ }).waitFor({ timeout: 5_000 });
    await page.locator('[data-testid=gate-panel]').screenshot({ path: `${ARTIFACTS}gate-editor-complete.png` });
    await editor(page).press('Escape');
    expect(await list.getByRole('option').count()).toBe(0);
    await editor(page).fill('');
    await editor(page).pressSequentially('votes_n');
    await list.getByRole('option').first().waitFor();
    await editor(page).press('Enter');
    expect(await editor(page).inputValue()).toBe('votes_neg');
  });

  it('a good rule: the counterfactual funnel at once; Apply puts it on the timeline and in the URL; a reload restores it', async () => {
    const page = h.page;
    await editor(page).fill(GOOD);
    await page.locator('[data-testid=replay-rules-draft]').waitFor();
    expect(await page.locator('[data-testid=gate-problems]').innerText()).toBe('');
    const [servedInUse, servedDraft] = await funnelRow(page, 'served');
    expect(Number(servedDraft)).toBe(Number(servedInUse));
    expect(Number(servedDraft)).toBeGreaterThan(0);
    const [, queued] = await funnelRow(page, 'queued');
    const [, dropped] = await funnelRow(page, 'dropped');
    expect(Number(queued) + Number(dropped)).toBe(Number(servedDraft));
    // per-rule counts of the draft add up to the samples replayed
    const counts = (await page.locator('[data-testid=replay-rules-draft] tbody td:nth-child(4)').allInnerTexts()).map(Number);
    expect(counts.reduce((a, x) => a + x, 0)).toBe(Number(servedDraft));
    expect(await page.locator('[data-testid=replay-rules-draft]').innerText()).toContain('votes disagree');
    await page.locator('[data-testid=gate-panel]').screenshot({ path: `${ARTIFACTS}gate-editor.png` });
    await page.screenshot({ path: `${ARTIFACTS}gate-editor-page.png` });

    await page.locator('[data-testid=gate-apply-run]').click();
    await page.waitForFunction(() => location.search.includes('gate='));
    const at = await stepCount(page);
    await stepN(page, 1);
    const timeline = page.locator('[data-testid=timeline]');
    await timeline.getByText(`after step ${at}`).waitFor();
    expect(await timeline.innerText()).toMatch(new RegExp(`after step ${at}\\s+gate built-in → 2 rules`));
    expect(await page.locator('.gate-panel .in-use').innerText()).toContain('custom, 2 rules');
    // the rules of the new gate decided the new step's samples (traces name them)
    expect(await page.locator('[data-testid=replay-rules-in-use]').innerText()).toContain('votes disagree');
    // the change is a labelled rule on the time charts, and the per-rule counts name the new gate's rules
    const metrics = page.locator('section[data-view=metrics]');
    await metrics.getByText('gate built-in → 2 rules').first().waitFor();
    await metrics.locator('.legend .key', { hasText: /^the rest$/ }).waitFor();
    await metrics.locator('.legend .key', { hasText: /^effective$/ }).waitFor(); // the built-in gate's, before the change
    await metrics.screenshot({ path: `${ARTIFACTS}gate-rule-counts.png` });
    // the sample inspector names the deciding rule
    await page.getByRole('checkbox', { name: 'Sample inspector' }).check();
    const inspector = page.locator('section[data-view=inspector]');
    await inspector.locator('.reason', { hasText: 'the rest' }).first().waitFor();

    // an edit not applied yet survives a reload of the tab; the URL restores the applied gate
    const edit = `${GOOD}\nturn > 3 => drop # late`;
    await editor(page).fill(edit);
    const url = page.url();
    await page.goto(url, { waitUntil: 'load' });
    await ready(page);
    await page.locator('[data-testid=gate-panel]').waitFor(); // it was open: it opens again
    expect(await editor(page).inputValue()).toBe(edit);
    expect(await page.locator('.gate-panel .in-use').innerText()).toContain('custom, 2 rules');
    await page.getByRole('button', { name: 'Revert to the gate in use' }).click();
    expect(await editor(page).inputValue()).toBe(GOOD);
    // a fresh tab with the shared URL: the gate, no draft
    const other = await h.context.newPage();
    try {
      await other.goto(url, { waitUntil: 'load' });
      await ready(other);
      await other.getByRole('button', { name: 'Gate editor' }).click();
      expect(await editor(other).inputValue()).toBe(GOOD);
      expect(await other.locator('.gate-panel .in-use').innerText()).toContain('custom, 2 rules');
    } finally {
      await other.close();
    }
  });

  it('exports the draft: the downloaded module decides under python3 as the lab; a trainer that cannot see a field the draft reads is refused, naming it', async () => {
    const page = h.page;
    await editor(page).fill(GOOD);
    await page.getByLabel('Export target').selectOption('python');
    const [dl] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid=gate-export]').click()]);
    expect(dl.suggestedFilename()).toBe('gate.py');
    const file = `${ARTIFACTS}gate-export.py`;
    await dl.saveAs(file);
    expect(readFileSync(file, 'utf8')).toContain('# A gate of Invariant Lab, exported as a Python 3 module');
    const input = JSON.stringify([{ votes_pos: 1, votes_neg: 2, reward: 1 }, { votes_pos: 0, votes_neg: 1, reward: -1, hint_len: 0 }]);
    const lines = execFileSync('python3', [file], { input, encoding: 'utf8' }).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toEqual([
      { rule: 0, queued: false, loss_mask: 0, reward: 0, opd_weight: 0, uses_hint: false },
      { rule: 1, queued: true, loss_mask: 1, reward: -1, opd_weight: 0, uses_hint: false },
    ]);
    // a trainer whose hook cannot provide a field the draft reads refuses it, naming the field
    const blind = Object.values(ADAPTERS).find((a) => a && Object.hasOwn(a.unavailable, 'staleness'))!;
    expect(blind).toBeDefined();
    await editor(page).fill(`staleness > 2 => drop # stale\n${GOOD}`);
    await page.getByLabel('Export target').selectOption(blind.target);
    await page.locator('.gate-export .refused', { hasText: `it reads "staleness", which ${blind.target} cannot provide` }).waitFor();
    expect(await page.locator('[data-testid=gate-export]').isDisabled()).toBe(true);
    await page.locator('[data-testid=gate-panel]').screenshot({ path: `${ARTIFACTS}gate-export-refused.png` });
  });
});
