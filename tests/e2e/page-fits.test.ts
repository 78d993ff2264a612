/**
 * The pages fit a 1280×800 screen: no view of the lab scrolls sideways (neither the document nor a
 * scrolling column inside it), and no chart's tick or label is cut off at its chart's edge. Checked
 * on the lab after a few steps, on the import view with the shipped verl example imported (its gate
 * preset list once was 1,244 px wide in a 930 px card), and on the experiments page before and
 * after an experiment has trained a step (its last x tick once hung over the chart's edge).
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, type OpenedPage } from '../browser/harness';
import { ARTIFACTS, TINY_MODEL, ready, stepN } from './lab-page';

const VIEWPORT = { width: 1280, height: 800 };

/**
 * What scrolls sideways: the document, and every element that scrolls on its own (overflow-x auto or
 * scroll: the lab's main column and sidebar), as `what scrollWidth/clientWidth`. Text boxes, code
 * blocks and tables that scroll inside a card by design are left out.
 */
function sideways(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const doc = document.scrollingElement!;
    if (doc.scrollWidth > doc.clientWidth) out.push(`document ${doc.scrollWidth}/${doc.clientWidth}`);
    for (const el of document.querySelectorAll<HTMLElement>('body *')) {
      if (el.matches('textarea, pre, input, select, .sr-only, .sr-only *') || el.closest('[data-scrolls-sideways]')) continue;
      const o = getComputedStyle(el).overflowX;
      if ((o === 'auto' || o === 'scroll') && el.scrollWidth > el.clientWidth + 1) out.push(`${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${[...el.classList].join('.')} ${el.scrollWidth}/${el.clientWidth}`);
    }
    return out;
  });
}

/**
 * Every text of a chart that reaches past what shows of it by more than a pixel: past its chart's box
 * or past an element around it that clips (overflow not visible), as `text (side by px)`.
 */
function clippedChartText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const svg of document.querySelectorAll<SVGSVGElement>('svg')) {
      if (svg.getBoundingClientRect().width === 0 || svg.parentElement?.closest('svg')) continue;
      const box = { left: -Infinity, right: Infinity, top: -Infinity, bottom: Infinity };
      for (let el: Element | null = svg; el && el !== document.body; el = el.parentElement) {
        if (el !== svg && getComputedStyle(el).overflow === 'visible') continue;
        const r = el.getBoundingClientRect();
        box.left = Math.max(box.left, r.left);
        box.right = Math.min(box.right, r.right);
        box.top = Math.max(box.top, r.top);
        box.bottom = Math.min(box.bottom, r.bottom);
      }
      for (const t of svg.querySelectorAll<SVGTextElement>('text')) {
        const r = t.getBoundingClientRect();
        if (r.width === 0 || !t.textContent?.trim()) continue;
        // a chart scrolled out of its column's view is not cut off: only sideways and within its rows
        if (r.bottom < box.top || r.top > box.bottom) continue;
        const over = { left: box.left - r.left, right: r.right - box.right };
        for (const [side, px] of Object.entries(over)) if (px > 1) out.push(`"${t.textContent.trim()}" in "${svg.getAttribute('aria-label') ?? ''}" (${side} by ${px.toFixed(0)} px)`);
      }
    }
    return out;
  });
}

async function expectFits(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${ARTIFACTS}fits-${name}.png` });
  expect(await sideways(page), `${name}: scrolls sideways`).toEqual([]);
  expect(await clippedChartText(page), `${name}: chart text cut off`).toEqual([]);
}

describe('the pages fit 1280×800', () => {
  let h: OpenedPage | undefined;
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    h = await openPage('nogpu', `/index.html?backend=wasm&${TINY_MODEL}`, { viewport: VIEWPORT });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('the lab, after a few steps', async () => {
    const page = h!.page;
    await ready(page);
    await stepN(page, 3);
    await expectFits(page, 'lab');
  });

  it('the import view with the shipped verl example imported, its gate preset chosen', async () => {
    const page = h!.page;
    await page.getByText('Import real rollouts').click();
    await page.getByTestId('import-panel').getByRole('button', { name: 'verl', exact: true }).click();
    await page.getByTestId('import-measure').click();
    await page.waitForSelector('[data-testid=imported-run]', { timeout: 60_000 });
    await page.getByLabel('Gate preset').selectOption('grpo + dynamic sampling (drop zero-variance groups)');
    const apply = page.getByTestId('gate-apply');
    await apply.scrollIntoViewIfNeeded();
    // the button is on screen, not past the right edge of the column
    const box = (await apply.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(VIEWPORT.width);
    await expectFits(page, 'import');
  });

  it('the experiments page, empty and after two steps of an experiment', async () => {
    const page = h!.page;
    await page.goto(`${h!.server.url}/index.html?page=experiments&backend=wasm&pretrain=20`, { waitUntil: 'load' });
    await page.getByText('No experiment open').waitFor({ timeout: 60_000 });
    await expectFits(page, 'experiments-empty');
    await page.getByLabel('base settings').fill('dModel=16, layers=1, heads=2, mlp=32, rolloutBatch=8, behaviorSamples=8');
    await page.getByLabel('experiment name').fill('fits');
    await page.getByLabel('seeds', { exact: true }).fill('1-2');
    await page.getByLabel('steps', { exact: true }).fill('12');
    await page.getByLabel('keep latest weights').setChecked(false);
    await page.getByRole('button', { name: 'Create and train' }).click();
    await page.waitForFunction(() => Number(document.querySelector('[data-testid=exp-step] b')?.textContent) >= 2, null, { timeout: 300_000 });
    await expectFits(page, 'experiments-trained');
  });
});
