/**
 * The task editor in real Chromium on WASM, tiny model: a bad spec names the field where it is, keeps
 * the draft and leaves the running run as it was; a good one trains (a new run, its base pretrained
 * from the spec's mix), appears in the URL (stored and named: it is too long for a link), and a
 * fresh tab with that URL restores it. A draft not applied survives a reload (the editor says it is a
 * draft and can discard it). Hints, next states and outcomes are edited in the form too, checked at
 * the field, and a task so edited trains. Screenshots
 * of the editor go to test-results/.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, type OpenedPage } from '../browser/harness';
import { ARTIFACTS, TINY_MODEL, ready, stepN } from './lab-page';

const TINY = `${TINY_MODEL}&backend=wasm`;
const mix = (page: Page, state: string, behavior: string) => page.getByLabel(`${state} base mix ${behavior}`, { exact: true });

describe('task editor (WASM)', () => {
  let h: OpenedPage;
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    h = await openPage('nogpu', `/?v=1&${TINY}`);
    await h.page.setViewportSize({ width: 1280, height: 1400 });
    await ready(h.page);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('a bad spec: the message at the field, the draft kept, the running run unchanged', async () => {
    const page = h.page;
    await stepN(page, 1);
    await page.getByRole('button', { name: 'Task editor' }).click();
    const panel = page.getByTestId('task-panel');
    await expect.poll(() => panel.locator('.in-use').innerText()).toContain('strategies');
    await mix(page, 'math', 'decompose').fill('0.9');
    await mix(page, 'math', 'decompose').press('Tab');
    await expect.poll(() => page.getByTestId('task-problems').innerText()).toMatch(/states\[0\]\.baseMix: probabilities must sum to 1/);
    expect(await mix(page, 'math', 'decompose').getAttribute('aria-invalid')).toBe('true');
    expect(await panel.getByRole('alert').first().innerText()).toMatch(/states\[0\]\.baseMix/);
    expect(await page.getByTestId('task-apply').isDisabled()).toBe(true);
    expect(await page.locator('#task-json').inputValue()).toContain('"decompose": 0.9');
    await page.screenshot({ path: `${ARTIFACTS}task-editor-bad.png`, fullPage: true });
    expect(page.url()).not.toContain('spec=');
    await stepN(page, 1); // the run goes on with its task
    expect(await panel.locator('.in-use').innerText()).toContain('strategies');
  }, 240_000);

  it('the draft survives a reload, says it is not applied, and can be discarded', async () => {
    const page = h.page;
    await page.reload({ waitUntil: 'load' });
    await ready(page);
    const note = page.getByTestId('task-draft-restored');
    await expect.poll(() => note.innerText()).toMatch(/draft from before the reload, not applied.*strategies/s);
    expect(await mix(page, 'math', 'decompose').inputValue()).toBe('0.9');
    expect(await page.locator('#task-json').inputValue()).toContain('"decompose": 0.9');
    expect(await page.getByTestId('task-panel').locator('.in-use').innerText()).toContain('strategies');
    await page.screenshot({ path: `${ARTIFACTS}task-editor-restored.png` });
    await page.getByTestId('task-draft-discard').click();
    await expect.poll(() => note.count()).toBe(0);
    expect(await mix(page, 'math', 'decompose').inputValue()).toBe('0.3');
    expect(await page.getByTestId('task-problems').innerText()).toContain('valid spec');
    // nothing comes back after another reload
    await page.reload({ waitUntil: 'load' });
    await ready(page);
    expect(await mix(page, 'math', 'decompose').inputValue()).toBe('0.3');
    expect(await note.count()).toBe(0);
  }, 240_000);

  it('a good spec trains, is in the URL, and a fresh tab restores it', async () => {
    const page = h.page;
    await mix(page, 'math', 'decompose').fill('0.6');
    await mix(page, 'math', 'decompose').press('Tab');
    await mix(page, 'math', 'direct').fill('0.1');
    await mix(page, 'math', 'direct').press('Tab');
    const name = page.getByTestId('task-panel').getByLabel('Name', { exact: true });
    await name.fill('my strategies');
    await expect.poll(() => page.getByTestId('task-problems').innerText()).toContain('valid spec');
    await page.screenshot({ path: `${ARTIFACTS}task-editor-good.png`, fullPage: true });
    await page.getByTestId('task-apply').click();
    await expect.poll(() => page.getByTestId('task-panel').locator('.in-use').innerText(), { timeout: 60_000 }).toContain('custom: my strategies');
    await ready(page);
    await stepN(page, 2);
    await expect.poll(() => page.url()).toContain('spec=');
    // the whole strategies spec is too long for a link: stored in this browser, and the link names it
    expect(new URL(page.url()).searchParams.get('spec')).toMatch(/^stored:my-strategies\.[0-9a-f]{8}$/);

    const fresh = await h.context.newPage();
    try {
      await fresh.goto(page.url(), { waitUntil: 'load' });
      await ready(fresh);
      await fresh.getByRole('button', { name: 'Task editor' }).click();
      expect(await fresh.getByTestId('task-panel').locator('.in-use').innerText()).toContain('custom: my strategies');
      expect(await mix(fresh, 'math', 'decompose').inputValue()).toBe('0.6');
      await stepN(fresh, 1);
    } finally {
      await fresh.close();
    }
  }, 300_000);

  it('hints, next states and outcomes in the form: checked at the field, and the edited task trains', async () => {
    const page = h.page;
    const panel = page.getByTestId('task-panel');
    await panel.getByLabel('Load a built-in task').selectOption('toolchain');
    const next = panel.getByLabel('start search next state', { exact: true });
    await next.fill('results=0.7, empty');
    await next.press('Enter');
    await expect.poll(() => page.getByTestId('task-problems').innerText()).toContain('states[0].act.search.next');
    expect(await next.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByTestId('task-apply').isDisabled()).toBe(true);
    await next.fill('results=0.6, empty=0.4');
    await next.press('Enter');
    const outcome = panel.getByLabel('start answer outcome', { exact: true });
    await outcome.fill('');
    await outcome.press('Enter');
    await expect.poll(() => outcome.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByTestId('task-problems').innerText()).toMatch(/states\[0\]\.act\.answer\.outcome: P\(success\)/);
    await outcome.fill('0.2');
    await outcome.press('Enter');
    await panel.getByLabel('start read hint to', { exact: true }).selectOption('answer');
    await panel.getByLabel('start read hint when', { exact: true }).selectOption('not-positive');
    await expect.poll(() => page.getByTestId('task-problems').innerText()).toContain('valid spec');
    const spec = JSON.parse(await page.locator('#task-json').inputValue());
    const act = spec.states[0].act;
    expect(act.search.next).toEqual({ results: 0.6, empty: 0.4 });
    expect(act.answer.outcome).toBe(0.2);
    expect(act.read.hint).toEqual({ to: 'answer', when: 'not-positive' });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByTestId('task-env-start').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${ARTIFACTS}task-editor-environment.png` });
    await page.setViewportSize({ width: 1280, height: 1400 });
    await page.getByTestId('task-apply').click();
    await expect.poll(() => panel.locator('.in-use').innerText(), { timeout: 60_000 }).toContain('custom: toolchain');
    await ready(page);
    await stepN(page, 2);
  }, 300_000);
});
