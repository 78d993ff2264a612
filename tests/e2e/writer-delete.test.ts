/**
 * Only the writer deletes (issue 24 §1): a second experiments tab, which shows the experiment another
 * tab trains read-only, cannot delete it — the Runs panel's delete is refused with a message, the
 * record stays, and the training tab goes on storing it. The writing tab itself deletes it.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, type OpenedPage } from '../browser/harness';
import { waitUntil } from '../support/poll';
import { storedRun } from './stored';

const PAGE = '/index.html?page=experiments&backend=wasm&pretrain=20';
const TINY = 'dModel=16, layers=1, heads=2, mlp=32, rolloutBatch=8, behaviorSamples=8';
const NAME = 'written-elsewhere';

const step = async (page: Page) => Number(await page.locator('[data-testid=exp-step] b').innerText());
const waitStep = (page: Page, atLeast: number) =>
  page.waitForFunction((n) => Number(document.querySelector('[data-testid=exp-step] b')?.textContent) >= n, atLeast, { timeout: 300_000 });
/** The last stored step of each cell of the open experiment. */
const storedLast = async (page: Page) => (await storedRun(page, 'open')).steps.map((s) => s.at(-1) ?? 0);

describe('deleting a stored experiment another tab writes', () => {
  let h: OpenedPage | undefined;
  beforeAll(async () => {
    h = await openPage('nogpu', PAGE);
    await h.page.getByText('No experiment open').waitFor({ timeout: 60_000 });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('is refused in the read-only tab; the writing tab trains and stores on, and deletes it itself', async () => {
    const page = h!.page;
    await page.getByLabel('base settings').fill(TINY);
    await page.getByLabel('variants', { exact: true }).fill('run: clipHigh=0.28');
    await page.getByLabel('experiment name').fill(NAME);
    await page.getByLabel('seeds', { exact: true }).fill('1');
    await page.getByLabel('steps', { exact: true }).fill('2000');
    await page.getByLabel('keep latest weights').setChecked(false);
    await page.getByRole('button', { name: 'Create and train' }).click();
    await waitStep(page, 2);
    await waitUntil(async () => (await storedLast(page)).every((s) => s >= 1), { timeout: 60_000, what: 'the first stored step' });

    const second = await h!.context.newPage();
    const errors: string[] = [];
    second.on('pageerror', (e) => errors.push(e.message));
    second.on('dialog', (d) => void d.accept()); // "Delete … and everything stored with it?"
    try {
      await second.goto(h!.server.url + PAGE, { waitUntil: 'load' });
      await second.getByTestId('exp-message').waitFor({ timeout: 120_000 });
      expect(await second.getByTestId('exp-message').innerText()).toMatch(/another tab of the lab has it open and stores it, so this tab shows it read-only/);
      await second.getByRole('button', { name: `delete ${NAME}`, exact: true }).click();
      await second.getByText(`"${NAME}" was not deleted: another tab of the lab trains and stores it.`).waitFor({ timeout: 30_000 });
      expect((await storedRun(second, 'open')).record, 'the record is still stored').not.toBeNull();
      expect(await second.locator('[data-testid=stored-run]').count()).toBe(1);
      // the writing tab stores on
      const before = Math.max(...(await storedLast(page)));
      await waitStep(page, (await step(page)) + 2);
      await waitUntil(async () => Math.min(...(await storedLast(page))) > before, { timeout: 60_000, what: 'the writing tab storing more steps' });
      expect(errors).toEqual([]);
    } finally {
      await second.close();
    }
    // the writer deletes it (its own lock): gone from the store
    page.on('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: `delete ${NAME}`, exact: true }).click();
    await page.getByText('No experiment open').waitFor({ timeout: 60_000 });
    await waitUntil(async () => (await page.locator('[data-testid=stored-run]').count()) === 0, { timeout: 30_000, what: 'the record deleted' });
    expect((await storedRun(page, 'open')).record).toBeNull();
  }, 900_000);
});
