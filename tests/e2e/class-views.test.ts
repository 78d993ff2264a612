/**
 * What a live class hits (issue 18 §1) in real Chromium on WASM, tiny model: the shortcuts after a
 * click inside the headline plot; projector mode on lesson k showing the invariant panels its watch
 * line names; the per-rule legend keeping each rule's name and colour across a gate change.
 * Screenshots at 1280x800 and in projector mode go to test-results/.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openPage, type OpenedPage } from '../browser/harness';
import { ARTIFACTS, TINY_MODEL, ready, stepCount, stepN, waitStep } from './lab-page';

const VIEWPORT = { width: 1280, height: 800 };

function report(h: OpenedPage | undefined): void {
  if (!h) return;
  console.error(`[class-views e2e] url ${h.page.url()}\n  errors: ${h.errors.join(' | ') || 'none'}\n  console tail: ${h.console.slice(-5).join(' | ')}`);
}

describe('shortcuts after a click on the plot', () => {
  let h: OpenedPage;
  beforeAll(async () => {
    // 1,000 planned steps: played between two Space presses, a 20-step tiny run could reach its end
    // on a loaded machine, and → at the end takes no step (seen once: the wait for the step timed out)
    h = await openPage('nogpu', `/?v=1&steps=1000&${TINY_MODEL}`, { viewport: VIEWPORT });
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(({ onTestFailed }) => onTestFailed(() => report(h)));

  it('Space plays and pauses, → steps and ← steps back after a click inside the headline plot; the page does not scroll', async () => {
    const page = h.page;
    await ready(page);
    const plot = page.locator('section[aria-label="Divergence plot"] svg rect[role=slider]');
    await plot.click({ position: { x: 200, y: 60 } });
    // the click opens that step's samples beside the plot, and leaves the focus on the page
    const viewer = page.getByTestId('sample-viewer');
    await viewer.waitFor();
    expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid=sample-viewer]'))).toBe(false);
    const scroll = () => page.evaluate(() => document.querySelector('main')!.scrollTop);
    const before = await scroll();
    await page.keyboard.press('ArrowRight');
    await waitStep(page, 1);
    await ready(page);
    await page.keyboard.press('Escape'); // closes the samples from anywhere
    await viewer.waitFor({ state: 'detached' });
    await plot.click({ position: { x: 300, y: 80 } });
    await page.keyboard.press('Escape');
    await page.keyboard.press(' ');
    await page.getByRole('button', { name: 'Pause' }).waitFor({ timeout: 30_000 });
    await page.keyboard.press(' ');
    await page.getByRole('button', { name: 'Play' }).waitFor({ timeout: 30_000 });
    await ready(page);
    expect(await scroll()).toBe(before);
    expect(await stepCount(page)).toBeGreaterThan(1);
    // a click on a view's plot too; keys typed into a number field stay there
    await page.locator('section[data-view=metrics] svg rect[role=slider]').first().click({ position: { x: 100, y: 40 } });
    await page.keyboard.press('Escape');
    const at = await stepCount(page);
    await page.keyboard.press('ArrowRight');
    await waitStep(page, at + 1);
    await ready(page);
    // ← steps back: the run as it was before its last step
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction((n) => Number(document.querySelector('[data-testid=step] b')?.textContent) === n, at, { timeout: 90_000 });
    await ready(page);
    await page.getByLabel('Steps per Step-N press').fill('10');
    await page.getByLabel('Steps per Step-N press').press('ArrowRight');
    await page.getByLabel('Steps per Step-N press').press('ArrowLeft');
    expect(await stepCount(page)).toBe(at);
    expect(h.errors).toEqual([]);
  });
});

describe('projector mode on lesson k', () => {
  let h: OpenedPage;
  beforeAll(async () => {
    h = await openPage('nogpu', `/?v=1&lesson=k-cascade&views=behavior,metrics,ratio,invariants&${TINY_MODEL}`, { viewport: VIEWPORT });
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(({ onTestFailed }) => onTestFailed(() => report(h)));

  it('shows the invariant panels the lesson tells the class to watch', async () => {
    const page = h.page;
    await ready(page);
    await stepN(page, 6);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS}class-lesson-k-1280x800.png` });
    await page.getByRole('button', { name: 'Projector' }).click();
    await page.waitForFunction(() => location.search.includes('projector=1'));
    const invariants = page.locator('section[data-view=invariants]');
    await invariants.waitFor();
    expect(await page.locator('section[data-view]').evaluateAll((els) => els.map((e) => e.getAttribute('data-view')))).toEqual(['invariants']);
    // its four panels, with data
    expect(await invariants.locator('figure').count()).toBeGreaterThanOrEqual(4);
    expect(await invariants.getByText('no data yet').count()).toBe(0);
    await page.screenshot({ path: `${ARTIFACTS}class-lesson-k-projector.png` });
    // the whole column (main scrolls inside the viewport): a tall window for the picture of the panels
    await page.setViewportSize({ width: VIEWPORT.width, height: 2400 });
    await invariants.screenshot({ path: `${ARTIFACTS}class-lesson-k-projector-panels.png` });
    await page.setViewportSize(VIEWPORT);
    expect(h.errors).toEqual([]);
  });
});

/** The legend of "samples by gate rule": label → colour and marker shape of each solid key (SeriesKey: its line's stroke, its data-shape). */
async function ruleLegend(page: Page): Promise<Map<string, string>> {
  const keys = await page.locator('section[data-view=metrics] figcaption .legend .key[data-series]').evaluateAll((els) =>
    els.map((e) => {
      const key = e.querySelector('svg.series-key')!;
      return [e.textContent!.trim(), `${getComputedStyle(key.querySelector('line')!).stroke} shape ${key.getAttribute('data-shape')}`] as [string, string];
    }),
  );
  return new Map(keys);
}

describe('rule legends across a gate change', () => {
  let h: OpenedPage;
  beforeAll(async () => {
    h = await openPage('nogpu', `/?v=1&views=metrics&${TINY_MODEL}`, { viewport: VIEWPORT });
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(({ onTestFailed }) => onTestFailed(() => report(h)));

  it('each rule keeps its name and colour when at-least-one is switched off mid-run (its rules move up an index)', async () => {
    const page = h.page;
    await ready(page);
    await stepN(page, 4);
    const before = await ruleLegend(page);
    expect(before.get('effective')).toBeTruthy();
    const box = page.getByRole('checkbox', { name: 'at least one', includeHidden: true });
    if (!(await box.isVisible())) await page.locator('aside details', { has: box }).locator('summary').click();
    await box.uncheck();
    await stepN(page, 4);
    await page.locator('section[data-view=metrics]').getByText(/at least one/).first().waitFor(); // the change is on the charts
    const after = await ruleLegend(page);
    for (const [label, colour] of before) if (after.has(label)) expect(after.get(label), label).toBe(colour);
    expect(after.get('effective')).toBe(before.get('effective'));
    const labels = await page.locator('section[data-view=metrics] figcaption .legend .key').allInnerTexts();
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels.filter((l) => /^rule \d/.test(l))).toEqual([]);
    await page.setViewportSize({ width: VIEWPORT.width, height: 2400 });
    await page.locator('section[data-view=metrics]').screenshot({ path: `${ARTIFACTS}class-rule-legend.png` });
    await page.setViewportSize(VIEWPORT);
    expect(h.errors).toEqual([]);
  });
});
