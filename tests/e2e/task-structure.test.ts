/**
 * The task editor builds a new task without hand-written JSON (issue 24 §4), in real Chromium on
 * WASM, tiny model: "Start from" loads the shipped tasks/triage.json, states and behaviors are
 * added and removed in the form (the spec stays valid), and "Copy link" gives a link that opens the
 * lab on that task in a fresh browser. Screenshot of the editor: test-results/task-structure.png.
 */
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, type OpenedPage } from '../browser/harness';
import { ARTIFACTS, TINY_MODEL, ready, stepN } from './lab-page';

describe('task editor: structure and links', () => {
  let h: OpenedPage;
  let link = '';
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    h = await openPage('nogpu', `/?v=1&${TINY_MODEL}&backend=wasm`);
    await h.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await h.page.setViewportSize({ width: 1280, height: 1400 });
    await ready(h.page);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('starts from the shipped triage task, adds and removes states and behaviors, stays valid', async () => {
    const page = h.page;
    await page.getByRole('button', { name: 'Task editor' }).click();
    await page.getByLabel('Load a built-in task').selectOption('tasks/triage.json');
    await expect.poll(() => page.locator('#task-json').inputValue()).toContain('"name": "triage"');
    await page.getByRole('button', { name: '+ state' }).click();
    await page.getByTestId('task-state-new state').waitFor();
    await page.getByRole('button', { name: '+ behavior' }).click();
    await page.getByLabel('behavior 4 name').waitFor();
    expect(await page.getByLabel('behavior 4 name').inputValue()).toBe('new behavior');
    await page.getByLabel('new state base mix new behavior', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'remove behavior ask' }).click();
    await page.getByRole('button', { name: 'remove state bug' }).click();
    await expect.poll(() => page.getByTestId('task-problems').innerText()).toBe('valid spec');
    const spec = JSON.parse(await page.locator('#task-json').inputValue()) as { states: { name: string }[]; behaviors: { name: string }[] };
    expect(spec.states.map((s) => s.name)).toEqual(['feature', 'new state']);
    expect(spec.behaviors.map((b) => b.name)).toEqual(['patch', 'plan', 'new behavior']);
    await page.getByTestId('task-panel').screenshot({ path: `${ARTIFACTS}task-structure.png` });

    await page.getByTestId('task-copy-link').click();
    await page.getByTestId('task-link').waitFor();
    link = await page.getByTestId('task-link').inputValue();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    expect(new URL(link).searchParams.get('spec')).toContain('"name":"triage"');
    expect(h.errors).toEqual([]);
  }, 240_000);

  it('the copied link opens the lab on that task in a fresh browser, and it trains', async () => {
    const fresh = await openPage('nogpu', new URL(link).pathname + new URL(link).search);
    try {
      await ready(fresh.page, 240_000);
      await fresh.page.getByRole('button', { name: 'Task editor' }).click();
      expect(await fresh.page.getByTestId('task-panel').locator('.in-use').innerText()).toContain('custom: triage');
      await stepN(fresh.page, 1);
      expect(fresh.errors).toEqual([]);
    } finally {
      await fresh.close();
    }
  }, 300_000);
});
