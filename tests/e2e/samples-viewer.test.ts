/**
 * The rollout viewer in real Chromium: import the shipped verl example, measure it, click a point of
 * the behavior plot and land on that step × state × behavior's samples, read back from the files;
 * filter, search, page with the keys, open a sample, close with Escape. Screenshots at 1280×800 and
 * 1920×1080 (test-results/samples-*.png).
 */
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, type OpenedPage } from '../browser/harness';
import { ARTIFACTS, TINY_MODEL, ready } from './lab-page';
import { scaled } from '../support/speed';

const ROOT = new URL('../../', import.meta.url).pathname;

describe('rollout viewer on an import', () => {
  let h: OpenedPage | undefined;
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    h = await openPage('nogpu', `/index.html?backend=wasm&${TINY_MODEL}`, { viewport: { width: 1280, height: 800 } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('imports the verl example with no rules and goes from a point of the behavior plot down to its samples', async () => {
    const page = h!.page;
    await page.getByText('Import real rollouts').click();
    // the shipped verl step files, picked with no rule file: states and behaviors are discovered
    const files = Array.from({ length: 20 }, (_, i) => `${ROOT}public/examples/verl/${i + 1}.jsonl`);
    await page.locator('[data-testid=import-files]').setInputFiles(files);
    await page.waitForSelector('[data-testid=import-format]', { timeout: scaled(60_000) });
    await page.locator('[data-testid=import-measure]').click();
    await page.waitForSelector('[data-testid=imported-run]', { timeout: scaled(60_000) });
    // discovered: the run's behaviors listed by title, each with its key name
    expect(await page.locator('[data-testid=run-behavior]').count()).toBeGreaterThan(1);

    // a click in the middle of the first state's plot, low down: the bottom band at a middle step
    const cursor = page.getByRole('slider', { name: /^behavior distribution of / }).first();
    // (its label reads the state's title; the key name is in data-state)
    const stateName = (await cursor.getAttribute('data-state'))!;
    await cursor.scrollIntoViewIfNeeded();
    const box = (await cursor.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height * 0.97);
    await page.mouse.click(box.x + box.width / 2, box.y + box.height * 0.97);
    const viewer = page.locator('[data-testid=sample-viewer]');
    await viewer.waitFor({ timeout: scaled(30_000) });
    const title = await viewer.locator('h3').innerText();
    const m = /^Samples: step (\d+) · state (\S+) · behavior (\S+)$/.exec(title);
    expect(m, title).not.toBeNull();
    expect(m![2]).toBe(stateName);
    await page.waitForFunction(() => /of \d+/.test(document.querySelector('[data-testid=samples-count]')?.textContent ?? ''), null, { timeout: scaled(30_000) });
    const rows = viewer.locator('[data-testid=sample-row]');
    expect(await rows.count()).toBeGreaterThan(0);
    for (const meta of await rows.locator('.meta').all()) {
      expect(await meta.innerText()).toMatch(new RegExp(`^step ${m![1]} · `));
      expect([await meta.getAttribute('data-state'), await meta.getAttribute('data-behavior')]).toEqual([m![2], m![3]]);
    }
    await page.screenshot({ path: `${ARTIFACTS}samples-1280.png` });

    // a sample opened (a lone sample is open at once): its prompt and response read back from the verl step file
    if ((await rows.first().getAttribute('aria-expanded')) !== 'true') await rows.first().click();
    const detail = viewer.locator('[data-testid=sample-detail]');
    await detail.waitFor();
    expect(await detail.innerText()).toContain(`${m![1]}.jsonl line`);
    // a discovered behavior says what put the sample there
    expect(await detail.innerText()).toMatch(/put there by: \S/);
    expect((await detail.locator('[data-testid=sample-response]').innerText()).length).toBeGreaterThan(5);

    // filters: any step, any behavior → the state's samples of every step, paged with the arrow keys
    await viewer.locator('[data-testid=samples-step]').selectOption('');
    await viewer.locator('[data-testid=samples-behavior]').selectOption('');
    await page.waitForFunction(() => /^1–20 of \d{3,}/.test(document.querySelector('[data-testid=samples-count]')?.textContent ?? ''), null, { timeout: scaled(30_000) });
    await rows.first().focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => /^21–40 of/.test(document.querySelector('[data-testid=samples-count]')?.textContent ?? ''), null, { timeout: scaled(30_000) });
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.closest('li') === document.querySelectorAll('[data-testid=sample-viewer] li')[1])).toBe(true);

    // a search over the text: every row shown holds the word
    const word = (await rows.first().locator('.resp').innerText()).split(/\s+/).find((w) => /^[a-z]{5,}$/i.test(w))!;
    await viewer.locator('[data-testid=samples-search]').fill(word);
    await viewer.locator('[data-testid=samples-search]').press('Enter');
    await page.waitForFunction((w) => document.querySelector('[data-testid=sample-viewer] h3')?.textContent?.includes(`"${w}"`), word, { timeout: scaled(30_000) });
    await page.waitForFunction(() => !document.querySelector('[data-testid=samples-count]')?.textContent?.includes('reading'), null, { timeout: scaled(60_000) });
    expect(await rows.count()).toBeGreaterThan(0);
    await page.setViewportSize({ width: 1920, height: 1080 });
    await rows.first().click();
    await page.screenshot({ path: `${ARTIFACTS}samples-1920.png` });

    // Escape closes and gives the focus back
    await viewer.locator('[data-testid=samples-search]').press('Escape');
    await viewer.waitFor({ state: 'detached' });
    expect(h!.errors).toEqual([]);
  });
});

describe("rollout viewer on the lab's own run", () => {
  let h: OpenedPage | undefined;
  beforeAll(async () => {
    h = await openPage('nogpu', `/?v=1&steps=20&${TINY_MODEL}`, { viewport: { width: 1280, height: 800 } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('goes from a step of the exploration plot to its traced samples with the gate rule that decided each', async () => {
    const page = h!.page;
    await ready(page, scaled(120_000));
    for (let i = 0; i < 2; i++) {
      const before = Number(await page.locator('[data-testid=step] b').innerText());
      await page.getByRole('button', { name: 'Step', exact: true }).click();
      await page.waitForFunction((n) => Number(document.querySelector('[data-testid=step] b')?.textContent) > n, before, { timeout: scaled(90_000) });
      await ready(page, scaled(120_000));
    }
    // the exploration plot's cursor: End puts it on the last step, Enter opens that step's samples
    const cursor = page.getByRole('slider', { name: /^Is the policy still exploring\?.*step cursor/ });
    await cursor.focus();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    const viewer = page.locator('[data-testid=sample-viewer]');
    await viewer.waitFor({ timeout: scaled(30_000) });
    expect(await viewer.locator('h3').innerText()).toBe('Samples: step 2');
    await page.waitForFunction(() => /of \d+/.test(document.querySelector('[data-testid=samples-count]')?.textContent ?? ''), null, { timeout: scaled(30_000) });
    const rows = viewer.locator('[data-testid=sample-row]');
    expect(await rows.count()).toBeGreaterThan(0);
    await rows.first().press('Enter');
    const gate = viewer.locator('[data-testid=sample-gate]');
    await gate.waitFor();
    expect(await gate.innerText()).toMatch(/^(trained|kept out of the loss|dropped) by rule \S/);
    // the decision filter offers the decisions this step made; one of them narrows the rows to it
    const decisions = (await viewer.locator('[data-testid=samples-decision] option').allInnerTexts()).filter((d) => d !== 'any');
    expect(decisions.length).toBeGreaterThan(0);
    await viewer.locator('[data-testid=samples-decision]').selectOption(decisions[0]);
    await page.waitForFunction((d) => [...document.querySelectorAll('[data-testid=sample-row] .meta')].every((m) => m.textContent?.endsWith(d)), decisions[0], { timeout: scaled(30_000) });
    await page.screenshot({ path: `${ARTIFACTS}samples-lab-1280.png` });
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
    // played on to its end at max speed (several steps reach the page in one batch): every step's
    // traced samples reached the page, and the status row's sample export says so
    await page.locator('.transport .play').click();
    await page.waitForFunction(() => Number(document.querySelector('[data-testid=step] b')?.textContent) === 20 && !document.querySelector('.transport .play[aria-pressed=true]'), null, { timeout: scaled(120_000) });
    await ready(page, scaled(120_000));
    expect(await page.getByRole('group', { name: "Export the run's samples as a trainer log" }).locator('.label').innerText()).toBe('samples (20/20 steps)');
    expect(h!.errors).toEqual([]);
  });
});
