/**
 * Classroom defects (issue 10 §1) in real Chromium on WASM: closing a compare, keyboard shortcuts
 * after clicks, presenter mode hiding values everywhere, run B's locked settings, URL banners, the
 * state picker before the first frame, and the first load (lesson a, screenshots at 1280x720).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openPage, type OpenedPage } from '../browser/harness';
import { ARTIFACTS, TINY_MODEL, ready, stepCount } from './lab-page';

const TINY = TINY_MODEL;

function report(h: OpenedPage | undefined): void {
  if (!h) return;
  console.error(`[classroom e2e] url ${h.page.url()}\n  errors: ${h.errors.join(' | ') || 'none'}\n  console tail: ${h.console.slice(-5).join(' | ')}`);
}

async function waitStep(page: Page, n: number, timeout = 60_000): Promise<void> {
  await page.waitForFunction((k) => Number(document.querySelector('[data-testid=step] b')?.textContent) === k, n, { timeout });
}

async function exportFrames(page: Page, group = 'Export metrics'): Promise<{ step: number; trace?: unknown }[]> {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByRole('group', { name: group, exact: true }).getByRole('button', { name: 'JSON', exact: true }).click()]);
  return (JSON.parse(readFileSync((await dl.path())!, 'utf8')) as { frames: { step: number; trace?: unknown }[] }).frames;
}

/** Press a key with focus on the page itself (nothing focused). */
async function pressOnPage(page: Page, key: string): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press(key);
}

describe('transport', () => {
  let h: OpenedPage;
  beforeAll(async () => {
    h = await openPage('nogpu', `/?v=1&steps=20&${TINY}`);
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(({ onTestFailed }) => onTestFailed(() => report(h)));

  it('fills the state picker before the first frame and draws the base point at step 0', async () => {
    await ready(h.page);
    expect(await stepCount(h.page)).toBe(0);
    const options = await h.page.locator('section[aria-label="Divergence plot"] select option').allInnerTexts();
    expect(options).toEqual(['average over all states', 'math', 'code', 'explain']);
    expect(await h.page.locator('section[aria-label="Divergence plot"] svg circle').count()).toBeGreaterThan(0);
  });

  it('shortcuts work after clicking a button and after picking in a select', async () => {
    await h.page.getByRole('button', { name: 'Step', exact: true }).click();
    await waitStep(h.page, 1);
    await ready(h.page);
    await h.page.keyboard.press('ArrowRight'); // focus is still on the Step button
    await waitStep(h.page, 2);
    await ready(h.page);
    await h.page.getByLabel('speed').selectOption('30'); // focus now on a select
    await h.page.keyboard.press(' ');
    await h.page.getByRole('button', { name: 'Pause' }).waitFor({ timeout: 30_000 });
    await h.page.keyboard.press(' ');
    await h.page.getByRole('button', { name: 'Play' }).waitFor({ timeout: 30_000 });
    await ready(h.page);
    await h.page.getByLabel('speed').selectOption('0');
    // reset to step 0 for the next test; keys typed into a number field stay there
    await pressOnPage(h.page, 'r');
    await waitStep(h.page, 0);
    await ready(h.page);
    await h.page.getByLabel('Steps per Step-N press').fill('10');
    await h.page.getByLabel('Steps per Step-N press').press('ArrowRight');
    expect(await stepCount(h.page)).toBe(0);
  });

  it('Close compare after a reset keeps run A where it is: counter, status, one frame per step', async () => {
    await h.page.getByRole('button', { name: 'Step 10', exact: true }).click();
    await waitStep(h.page, 10);
    await ready(h.page);
    await h.page.getByRole('button', { name: 'Fork' }).click();
    await h.page.locator('[data-testid=backend-B]').waitFor();
    await ready(h.page);
    // run B's seed is A's: the control shows the value B uses and is not editable
    expect(await h.page.locator('#cfg-seed').count()).toBe(0);
    expect(await h.page.getByTestId('locked-seed').innerText()).toMatch(/^1 · run B keeps run A's/); // the default seed
    for (const [key, n] of [['ArrowRight', 11], ['ArrowRight', 12], ['r', 10], ['ArrowRight', 11]] as const) {
      await pressOnPage(h.page, key);
      await waitStep(h.page, n);
      await ready(h.page);
    }
    await h.page.getByRole('button', { name: 'Close compare' }).click();
    await ready(h.page);
    expect(await stepCount(h.page)).toBe(11);
    expect((await h.page.getByTestId('status').innerText()).trim()).not.toBe('');
    await pressOnPage(h.page, 'ArrowRight');
    await waitStep(h.page, 12);
    await ready(h.page);
    const frames = await exportFrames(h.page);
    expect(frames.map((f) => f.step)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(frames.some((f) => 'trace' in f)).toBe(false);
    expect(h.errors).toEqual([]);
  });
});

describe('presenter mode hides values everywhere', () => {
  let h: OpenedPage;
  beforeAll(async () => {
    h = await openPage('nogpu', `/?v=1&lesson=b-clip-higher&present=1&hide=clipHigh,updatesPerRollout&pauseAt=2&views=ratio,invariants&${TINY}`);
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(({ onTestFailed }) => onTestFailed(() => report(h)));

  it('no 0.28 / 1.28 / K = 8 on the page until the checkpoint, then the lesson text shows', async () => {
    await ready(h.page);
    await pressOnPage(h.page, 'ArrowRight');
    await waitStep(h.page, 1);
    await ready(h.page);
    const text = await h.page.locator('body').innerText();
    for (const leak of ['0.28', '1.28', 'all 8 updates', 'eight updates']) expect(text, leak).not.toContain(leak);
    expect(await h.page.getByTestId('lesson-text').innerText()).toMatch(/shows at the checkpoint \(step 2\)/);
    await pressOnPage(h.page, 'ArrowRight');
    await waitStep(h.page, 2);
    await ready(h.page);
    expect(await h.page.getByTestId('lesson-text').innerText()).toMatch(/grow a little faster/);
    expect(await h.page.locator('body').innerText()).toContain('1.28');
    expect(h.errors).toEqual([]);
  });
});

describe('URL problems', () => {
  let h: OpenedPage;
  beforeAll(async () => {
    h = await openPage('nogpu', `/?v=1&foo=1&foo=1&views=zzz&present=yes&${TINY}`);
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(({ onTestFailed }) => onTestFailed(() => report(h)));

  it('a duplicated banner line still shows the banner; views=zzz keeps the defaults; present=yes is reported; the URL follows the controls', async () => {
    const banner = h.page.getByTestId('url-errors');
    await banner.waitFor({ timeout: 30_000 });
    const text = await banner.innerText();
    expect(text).toMatch(/foo/);
    expect(text).toMatch(/views: unknown view "zzz".*default views/);
    expect(text).toMatch(/present: expected 1 or 0, got "yes"/);
    await ready(h.page);
    expect(await h.page.locator('[data-view]').count()).toBeGreaterThan(0);
    await h.page.locator('#cfg-clipLow').fill('0.25');
    await h.page.locator('#cfg-clipLow').press('Tab');
    await h.page.waitForFunction(() => location.search.includes('clipLow=0.25'));
    expect(h.errors).toEqual([]);
  });
});

describe('first load', () => {
  let h: OpenedPage;
  beforeAll(async () => {
    h = await openPage('nogpu', '/');
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(({ onTestFailed }) => onTestFailed(() => report(h)));

  it('opens on lesson a on its state with a watch line; the headline fits above the fold (normal and projector)', async () => {
    await ready(h.page, 120_000);
    expect(h.page.url()).toContain('lesson=a-support-collapse');
    expect(h.page.url()).toContain('state=math');
    expect(await h.page.getByTestId('watch').innerText()).toMatch(/^Press Play/);
    const box = await h.page.locator('section[aria-label="Divergence plot"] svg').first().boundingBox();
    expect(box!.y + box!.height).toBeLessThanOrEqual(720);
    mkdirSync(ARTIFACTS, { recursive: true });
    await h.page.screenshot({ path: `${ARTIFACTS}classroom-first-load.png` });
    await h.page.getByRole('button', { name: 'Projector' }).click();
    await h.page.waitForFunction(() => location.search.includes('projector=1'));
    await h.page.screenshot({ path: `${ARTIFACTS}classroom-projector.png` });
    // the skip link is the first keyboard stop and lands past the controls
    expect(await h.page.evaluate(() => document.querySelector('a[href], button, input, select')?.textContent)).toBe('Skip to the plots');
    await h.page.getByRole('link', { name: 'Skip to the plots' }).focus();
    await h.page.keyboard.press('Enter');
    expect(await h.page.evaluate(() => document.activeElement?.id)).toBe('plots');
    expect(h.errors).toEqual([]);
  });
});
