/**
 * Hostile task specs in the page (issue 24 §5), real Chromium on WASM, tiny model. A spec whose
 * behavior is named "constructor" and missing from a state's `act` (it threw a TypeError in the
 * validator on every surface): in a link the lab still starts, on the built-in task, and says why;
 * pasted into the task editor it shows the problem and Train stays disabled (the editor kept the
 * previous draft's "valid spec"); kept in sessionStorage it comes back after a reload without a page
 * error (it crashed the tab on every reload), and a kept value the editor cannot read is dropped
 * with a message. A spec past the link's 4,000-character cap is named with what to do.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_SPECS } from '../../src/core/tasks/builtin';
import { encodeQueryValue } from '../../src/core/config';
import { TASK_DRAFT_KEY } from '../../src/ui/tasks/kept-draft';
import { openPage, type OpenedPage } from '../browser/harness';
import { TINY_MODEL, ready } from './lab-page';

const TINY = `${TINY_MODEL}&backend=wasm`;

/** strategies with its behavior `decompose` renamed "constructor" and left out of math's act. */
function constructorSpec(): string {
  const s = JSON.parse(JSON.stringify(BUILTIN_SPECS.strategies).replaceAll('"decompose"', '"constructor"')) as { states: { act: Record<string, unknown> }[] };
  Reflect.deleteProperty(s.states[0].act, 'constructor');
  return JSON.stringify(s);
}

const pageErrors = (h: OpenedPage) => h.errors.filter((e) => e.startsWith('pageerror'));
const banner = (page: Page) => page.getByTestId('url-errors').innerText();

describe('hostile task specs in the page (WASM)', () => {
  let h: OpenedPage;
  afterAll(async () => {
    await h?.close();
  });

  beforeAll(async () => {
    const query = `?v=1&${TINY}&spec=${encodeQueryValue(constructorSpec())}`;
    expect(query.length).toBeLessThan(4000);
    h = await openPage('nogpu', `/${query}`);
    await h.page.setViewportSize({ width: 1280, height: 1400 });
  }, 240_000);

  it('in a link: the lab starts on the built-in task and names the field', async () => {
    const page = h.page;
    await ready(page);
    const text = await banner(page);
    expect(text).toMatch(/taskSpec: .*states\[0\]\.act\.constructor: required \(got missing\).*\(using the built-in task strategies\)/);
    expect(text).not.toContain('(using )');
    expect(pageErrors(h)).toEqual([]);
  }, 240_000);

  it('pasted into the task editor: the problem is shown and Train is disabled', async () => {
    const page = h.page;
    await page.getByRole('button', { name: 'Task editor' }).click();
    const problems = page.getByTestId('task-problems');
    await expect.poll(() => problems.innerText()).toContain('valid spec'); // the task in use
    await page.locator('#task-json').fill(constructorSpec());
    await expect.poll(() => problems.innerText()).toMatch(/states\[0\]\.act\.constructor: required/);
    expect(await problems.innerText()).not.toContain('valid spec');
    expect(await page.getByTestId('task-apply').isDisabled()).toBe(true);
    expect(await page.getByTestId('task-panel').locator('.actions .state').innerText()).toMatch(/cannot train/);
    // the form shows the spec's own numbers (no inherited function as a mix or a reward)
    expect(await page.getByLabel('math base mix constructor', { exact: true }).inputValue()).toBe('0.3');
    expect(pageErrors(h)).toEqual([]);
  }, 240_000);

  it('kept across a reload: shown again without a page error; an unreadable kept draft is dropped with a message', async () => {
    const page = h.page;
    await page.reload({ waitUntil: 'load' });
    await ready(page);
    await expect.poll(() => page.getByTestId('task-problems').innerText()).toMatch(/states\[0\]\.act\.constructor: required/);
    expect(await page.getByTestId('task-draft-restored').innerText()).toMatch(/not applied/);
    expect(await page.getByTestId('task-apply').isDisabled()).toBe(true);
    expect(pageErrors(h)).toEqual([]);

    await page.evaluate((key) => sessionStorage.setItem(key, JSON.stringify({ text: { not: 'text' }, open: true })), TASK_DRAFT_KEY);
    await page.reload({ waitUntil: 'load' });
    await ready(page);
    const dropped = page.getByTestId('task-draft-dropped');
    await expect.poll(() => dropped.innerText()).toMatch(/^The task editor's draft from before the reload was dropped: its text is not text\.$/);
    expect(await page.getByTestId('status').innerText()).toMatch(/draft from before the reload was dropped/);
    expect(await page.getByTestId('task-problems').innerText()).toContain('valid spec');
    // dropped for good: the next reload says nothing
    await page.reload({ waitUntil: 'load' });
    await ready(page);
    expect(await dropped.count()).toBe(0);
    expect(pageErrors(h)).toEqual([]);
  }, 360_000);

  it('a spec past the link cap: the banner names the task spec and what to do', async () => {
    const page = h.page;
    const long = JSON.stringify(BUILTIN_SPECS.assistant);
    await page.goto(`${new URL(page.url()).origin}/?v=1&${TINY}&spec=${encodeQueryValue(long)}`, { waitUntil: 'load' });
    await ready(page);
    const text = await banner(page);
    expect(text).toMatch(/taskSpec: the task spec in the link \(spec=…, \d+ characters\) lies past the first 4000 characters and was not read: paste the spec into the task editor/);
    expect(text).toMatch(/\(using the built-in task strategies\)/);
    expect(pageErrors(h)).toEqual([]);
  }, 240_000);
});
