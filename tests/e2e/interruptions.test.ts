/**
 * What interrupts a class (issue 24 §3), in real Chromium on WASM: a lesson switch shows the new
 * lesson's run at once (never the old step, chart or scales under the new title), Back and Forward
 * walk the lessons, a custom task leaves the open lesson, the exports carry step 0, near-constant
 * metrics are drawn as constants, lesson j's invariant cards step without errors.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openPage, type OpenedPage } from '../browser/harness';
import { TINY_MODEL, exportJson, ready, stepN } from './lab-page';

function report(h: OpenedPage | undefined): void {
  if (h) console.error(`[interruptions e2e] url ${h.page.url()}\n  errors: ${h.errors.join(' | ') || 'none'}\n  console tail: ${h.console.slice(-5).join(' | ')}`);
}

/** Record, in every animation frame from now on (what is painted), the step counter and the headline's "max behavior entropy" label. */
async function recordHeadline(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: string[][] = [];
    (window as unknown as { seen: string[][] }).seen = seen;
    const look = () => {
      const step = document.querySelector('[data-testid=step]')?.textContent?.trim() ?? '';
      const max = [...document.querySelectorAll('section[aria-label="Divergence plot"] svg text')].map((t) => t.textContent ?? '').find((t) => t.startsWith('max behavior entropy')) ?? '';
      const last = seen[seen.length - 1];
      if (!last || last[0] !== step || last[1] !== max) seen.push([step, max]);
    };
    const frame = () => {
      look();
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}
const recorded = (page: Page) => page.evaluate(() => (window as unknown as { seen: string[][] }).seen);

const lessonTitle = (page: Page) => page.getByTestId('status').locator('b').first().innerText();

describe('a lesson switch, Back and Forward', () => {
  let h: OpenedPage;
  beforeAll(async () => {
    // lesson h: the toolchain task, 3 behaviors; lesson a: strategies, 4 behaviors (shipped bases)
    h = await openPage('nogpu', '/?v=1&lesson=h-long-horizon-credit&backend=wasm');
  }, 240_000);
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(({ onTestFailed }) => onTestFailed(() => report(h)));

  it("from the click on, the counter and the headline's scales are the new lesson's (no old step under the new title)", async () => {
    await ready(h.page, 240_000);
    await stepN(h.page, 3);
    const titleH = await lessonTitle(h.page);
    await recordHeadline(h.page);
    await h.page.locator('#lesson-select').selectOption('a-support-collapse');
    await ready(h.page, 240_000);
    const seen = await recorded(h.page);
    // lesson a has 60 steps: "step 3 / 60" would be lesson h's step under lesson a's total
    expect(seen.filter(([step]) => step.endsWith('/ 60')).map(([step]) => step)).toEqual(seen.filter(([step]) => step.endsWith('/ 60')).map(() => 'step 0 / 60'));
    // once the counter is lesson a's, the headline's maximum is ln 4 (strategies), never h's ln 3
    expect(seen.filter(([step, max]) => step.endsWith('/ 60') && max !== '').map(([, max]) => max)).not.toContainEqual(expect.stringContaining('ln 3'));
    expect(seen.at(-1)).toEqual(['step 0 / 60', 'max behavior entropy ln 4 = 1.39']);
    expect(await lessonTitle(h.page)).not.toBe(titleH);
    expect(h.errors).toEqual([]);
  }, 300_000);

  it('Back returns to the lesson before (the app stays), Forward to the one after', async () => {
    const titleA = await lessonTitle(h.page);
    await h.page.goBack();
    await h.page.waitForFunction(() => new URLSearchParams(location.search).get('lesson') === 'h-long-horizon-credit', null, { timeout: 30_000 });
    await ready(h.page, 240_000);
    expect(await h.page.locator('#lesson-select').inputValue()).toBe('h-long-horizon-credit');
    expect(await h.page.locator('[data-testid=step]').innerText()).toBe('step 0 / 120');
    expect(await lessonTitle(h.page)).not.toBe(titleA);
    await h.page.goForward();
    await h.page.waitForFunction(() => new URLSearchParams(location.search).get('lesson') === 'a-support-collapse', null, { timeout: 30_000 });
    await ready(h.page, 240_000);
    expect(await h.page.locator('#lesson-select').inputValue()).toBe('a-support-collapse');
    expect(await lessonTitle(h.page)).toBe(titleA);
    expect(h.errors).toEqual([]);
  }, 300_000);
});

describe('a custom task, the exports, lesson j', () => {
  let h: OpenedPage;
  beforeAll(async () => {
    h = await openPage('nogpu', `/?v=1&lesson=j-collapse-vs-convergence&views=invariants&sftGoldSteps=10&${TINY_MODEL}`);
  }, 240_000);
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(({ onTestFailed }) => onTestFailed(() => report(h)));

  it('lesson j: the invariant cards step without errors; a metric that only varies by rounding says "constant"', async () => {
    await ready(h.page);
    await stepN(h.page, 2);
    await stepN(h.page, 2);
    expect(h.errors).toEqual([]);
    expect(await h.page.getByTestId('constant').count()).toBeGreaterThan(0);
    // no axis tick in the range of rounding noise
    const ticks = await h.page.locator('section[aria-label="The four invariants"] svg text').allInnerTexts();
    expect(ticks.filter((t) => /^-?\d(\.\d+)?e-(\d{2}|[7-9])$/.test(t))).toEqual([]);
  }, 300_000);

  it('the JSON export starts at step 0, the base the plot draws there', async () => {
    const doc = await exportJson<{ start?: { step: number; scalars: Record<string, number> }; frames: { step: number }[] }>(h.page);
    expect(doc.start?.step).toBe(0);
    expect(doc.start?.scalars['support/token_entropy']).toBeGreaterThan(0);
    expect(doc.frames[0].step).toBe(1);
  });

  it('a custom task trains outside the lesson: no lesson title, text or built-in task name for it', async () => {
    await h.page.getByRole('button', { name: 'Task editor' }).click();
    await h.page.getByLabel('Load a built-in task').selectOption('strategies');
    await h.page.locator('#task-json').fill((await h.page.locator('#task-json').inputValue()).replace('"name": "strategies"', '"name": "my strategies"'));
    await h.page.getByTestId('task-apply').click();
    await ready(h.page, 240_000);
    expect(await h.page.locator('#lesson-select').inputValue()).toBe('');
    expect(await h.page.getByTestId('lesson-text').count()).toBe(0);
    expect(await h.page.getByTestId('status').locator('b').count()).toBe(0);
    expect(new URL(h.page.url()).searchParams.get('lesson')).toBeNull();
    expect(await h.page.getByTestId('locked-task').textContent()).toContain('custom: my strategies');
    expect(h.errors).toEqual([]);
  }, 300_000);
});
