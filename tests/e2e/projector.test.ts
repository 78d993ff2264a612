/**
 * Projector mode runs every lesson on one 16:9 screen (issue 43 §1): at 1280x720 and 1920x1080 the
 * lesson's instruction, the controls its watch line names (src/ui/state/named-controls.ts) and the
 * plots it names (src/ui/state/views.ts) are all wholly inside the viewport and inside every box
 * that clips them: nothing to scroll to. WASM, tiny model, 3 steps taken so the plots hold data.
 * Screenshots of each lesson at both sizes go to test-results/projector-<size>-<lesson>.png.
 */
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fieldLabel } from '../../src/core/config';
import { parseMeasures } from '../../src/core/lesson-text';
import { parsePreset } from '../../src/core/presets';
import { controlsNamedIn } from '../../src/ui/state/named-controls';
import { viewsNamedIn } from '../../src/ui/state/views';
import { openPage, type OpenedPage } from '../browser/harness';
import { scaled } from '../support/speed';
import { ARTIFACTS, TINY_MODEL, ready, stepN } from './lab-page';

const PRESETS = new URL('../../public/presets/', import.meta.url);
const LESSONS = readdirSync(PRESETS).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
const json = (path: string): unknown => JSON.parse(readFileSync(new URL(path, PRESETS), 'utf8'));
/** The watch line as the page shows it (numbers filled from the lesson's measurements). */
const watchOf = (id: string) => parsePreset(id, json(`${id}.json`), parseMeasures(id, json(`measured/${id}.json`))).watch ?? '';
const SIZES = [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
];

/**
 * What of `selector` is cut off: '' when the element is wholly inside the viewport and inside every
 * ancestor that clips or scrolls, else the first box it sticks out of.
 */
async function cutOff(page: Page, selector: string): Promise<string> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return `${sel}: not on the page`;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return `${sel}: not shown`;
    const outside = (b: { left: number; top: number; right: number; bottom: number }) => r.left < b.left - 1 || r.top < b.top - 1 || r.right > b.right + 1 || r.bottom > b.bottom + 1;
    const box = (x: DOMRect) => `[${Math.round(x.left)},${Math.round(x.top)} – ${Math.round(x.right)},${Math.round(x.bottom)}]`;
    if (outside({ left: 0, top: 0, right: innerWidth, bottom: innerHeight })) return `${sel} ${box(r)} outside the ${innerWidth}x${innerHeight} viewport`;
    for (let a = el.parentElement; a; a = a.parentElement) {
      const o = getComputedStyle(a);
      if (o.overflowX === 'visible' && o.overflowY === 'visible') continue;
      const b = a.getBoundingClientRect();
      if (outside({ left: b.left + a.clientLeft, top: b.top + a.clientTop, right: b.left + a.clientLeft + a.clientWidth, bottom: b.top + a.clientTop + a.clientHeight })) {
        return `${sel} ${box(r)} cut off by ${a.tagName.toLowerCase()}.${[...a.classList].join('.')} ${box(b)}`;
      }
    }
    return '';
  }, selector);
}

describe('projector mode: each lesson on one screen (WASM, tiny model)', () => {
  let h: OpenedPage;
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    h = await openPage('nogpu', '/?v=1', { viewport: SIZES[0] });
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(({ onTestFailed }) => onTestFailed(() => console.error(`[projector e2e] ${h.page.url()}\n  errors: ${h.errors.join(' | ') || 'none'}`)));

  for (const id of LESSONS) {
    it(`${id}: instruction, named controls and named plots fit 1280x720 and 1920x1080`, async () => {
      const page = h.page;
      await page.setViewportSize(SIZES[0]);
      await page.goto(new URL(`/?v=1&lesson=${id}&projector=1&steps=3&${TINY_MODEL}&backend=wasm`, page.url()).href);
      await ready(page, scaled(120_000));
      await stepN(page, 3);
      // the run of the lesson before is stored in this browser: a lesson's link offers no stored run over it
      expect(await page.getByTestId('restore-offer').count()).toBe(0);
      const watch = watchOf(id);
      const named = controlsNamedIn(watch);
      const views = viewsNamedIn(watch);
      // the instruction is the lesson's (on screen as written), and the controls it names are there
      expect(await page.locator('[data-testid=watch]').innerText()).toBe(watch.replace(/\s+/g, ' ').trim());
      // the views it names, or the headline where it names none (its line talks about the headline's charts)
      const wanted = ['[data-testid=watch]', ...(views.length ? views.map((v) => `[data-view=${v}]`) : ['section.headline svg'])];
      if (named.settings.length || named.gateEditor) {
        wanted.push('[data-testid=lesson-controls]');
        const controls = await page.locator('[data-testid=lesson-controls]').innerText();
        for (const k of named.settings) expect(controls, k).toContain(fieldLabel(k));
        if (named.gateEditor) expect(controls).toContain('Gate editor');
      }
      for (const size of SIZES) {
        await page.setViewportSize(size);
        // the slots refit (ResizeObserver) and the charts redraw at the new size: wait until it settles
        const cuts = async () => (await Promise.all(wanted.map((sel) => cutOff(page, sel)))).filter(Boolean);
        const settled = Date.now() + scaled(5_000);
        while ((await cuts()).length && Date.now() < settled) await page.waitForTimeout(200);
        await page.screenshot({ path: `${ARTIFACTS}projector-${size.width}x${size.height}-${id}.png` });
        expect(await cuts(), `${size.width}x${size.height}`).toEqual([]);
        const zooms = await page.locator('[data-zoom]').evaluateAll((els) => els.map((e) => `${e.getAttribute('aria-label')} ×${e.getAttribute('data-zoom')}`));
        console.log(`[projector] ${id} ${size.width}x${size.height}: ${zooms.join(', ')}`);
        expect(await page.locator('section[data-view]').count()).toBe(views.length);
        expect(await page.locator('section.headline').count()).toBe(views.length ? 0 : 1);
      }
    }, scaled(180_000));
  }
});
