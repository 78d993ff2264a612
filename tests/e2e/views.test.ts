/** The chart views (src/ui/views) in real Chromium, on the fixture page of recorded real runs. */
import { mkdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MetricsFrame } from '../../src/core/metrics';
import { formatValue } from '../../src/ui/charts/series';
import { openPage, type OpenedPage } from '../browser/harness';

const ARTIFACTS = new URL('../../test-results/', import.meta.url).pathname;
const load = (name: string) => JSON.parse(readFileSync(new URL(`../browser/fixtures/${name}.json`, import.meta.url), 'utf8')) as { frames: MetricsFrame[] };
const fixture = load('a-lr3e-4');
const combineServed = load('f-combine-gating').frames.find((f) => f.step === 40)!.scalars['esr/served'];
const VIEWS = ['divergence', 'behavior-area', 'support-heatmap', 'invariants', 'ratio', 'funnel', 'inspector'];

describe('views fixture page', () => {
  let h: OpenedPage;
  beforeAll(async () => {
    h = await openPage('nogpu', '/tests/browser/views.html');
    await h.page.waitForSelector('body[data-ready="1"]', { state: 'attached', timeout: 30_000 });
  });
  afterAll(async () => {
    await h?.close();
  });

  const view = (id: string) => h.page.locator(`section[data-view="${id}"]`);

  it('renders every view with data', async () => {
    for (const id of VIEWS) expect(await view(id).count(), id).toBe(1);
    // drawn data, not just axes: non-trivial paths / rects / table rows
    const longPaths = (id: string) => view(id).locator('svg path').evaluateAll((ps) => ps.filter((p) => (p.getAttribute('d') ?? '').length > 200).length);
    expect(await longPaths('divergence')).toBeGreaterThanOrEqual(6);
    expect(await longPaths('behavior-area')).toBeGreaterThanOrEqual(12);
    expect(await longPaths('invariants')).toBeGreaterThanOrEqual(10);
    expect(await view('support-heatmap').locator('svg rect:not([data-export])').count()).toBeGreaterThan(120 * 3);
    expect(await view('ratio').locator('svg rect:not([data-export])').count()).toBeGreaterThan(12);
    expect(await view('funnel').locator('svg rect:not([data-export])').count()).toBeGreaterThanOrEqual(10);
    expect(await view('inspector').locator('tbody tr').count()).toBeGreaterThan(10);
    expect(await view('inspector').locator('.tok.marker').count()).toBeGreaterThan(10);
    expect(h.errors).toEqual([]);
  });

  it('marks where behavior support drops while token entropy stays high', async () => {
    expect(await view('divergence').locator('g[data-marker]').count()).toBeGreaterThan(0);
    expect(await view('divergence').locator('.plot > svg').textContent()).toMatch(/4→3 behaviors, token entropy still \d+ % of steps 1–3/); // the fixture has no step 0: its start is its first steps
  });

  it('hover on the divergence plot shows the exact step and values', async () => {
    const slider = view('divergence').getByRole('slider', { name: /step cursor/ });
    await slider.scrollIntoViewIfNeeded();
    const box = (await slider.boundingBox())!;
    await h.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const tip = view('divergence').getByRole('status');
    await tip.waitFor();
    const text = await tip.innerText();
    const step = Number(/step (\d+)/.exec(text)?.[1]);
    const frame = fixture.frames.find((f) => f.step === step)!;
    expect(frame).toBeDefined();
    expect(text).toContain(`token entropy (surface variety): ${formatValue(frame.scalars['support/token_entropy'] ?? NaN)}`);
    const states = ['math', 'code', 'explain'];
    const mean = states.reduce((a, s) => a + (frame.scalars[`support/behavior_entropy/${s}`] ?? NaN), 0) / states.length;
    expect(text).toContain(`behavior entropy (choice variety), average over all 3 states: ${formatValue(mean)}`);
    await h.page.mouse.move(0, 0);
  });

  it('keyboard moves the cursors (divergence steps, heatmap cells)', async () => {
    const slider = view('divergence').getByRole('slider', { name: /step cursor/ });
    await slider.focus();
    await h.page.keyboard.press('Home');
    await h.page.keyboard.press('ArrowRight');
    expect(await view('divergence').getByRole('status').innerText()).toMatch(/^step 2\b/);
    await view('support-heatmap').getByRole('slider').focus();
    await h.page.keyboard.press('ArrowUp');
    expect(await view('support-heatmap').getByRole('status').innerText()).toMatch(/step 120 · math\s+support: \d of 4 behaviors/);
  });

  it('ε is adjustable: support is recomputed and onEpsChange fires', async () => {
    const eps = view('divergence').getByRole('spinbutton', { name: 'feasibility threshold ε' });
    // run A's support line (the bottom panel's solid series), not its markers or a legend key
    const support = view('divergence').locator('svg path[data-line^="behavior support"]:not([stroke-dasharray])');
    expect(await support.count()).toBe(1);
    const before = await support.getAttribute('d');
    await eps.fill('0.3');
    await eps.press('Enter');
    await h.page.waitForFunction(() => window.epsLog.includes(0.3));
    const after = await support.getAttribute('d');
    expect(after).not.toBe(before);
    await eps.fill('0.02');
    await eps.press('Enter');
  });

  it('hover shows values on the other charts', async () => {
    for (const [id, re] of [
      ['behavior-area', /step \d+ · math[\s\S]*decompose: [\d.]+ ± [\d.]+/],
      ['ratio', /step 60 · ρ [\d.–<≥ ]+\s+tokens: \d+ of \d+/],
      ['funnel', new RegExp(`step 40 · served: ${combineServed}\\b`)],
      ['support-heatmap', /step \d+ · (math|code|explain)\s+support: \d of 4 behaviors/],
    ] as const) {
      const slider = view(id).getByRole('slider').first();
      await slider.scrollIntoViewIfNeeded();
      const box = (await slider.boundingBox())!;
      const y = id === 'funnel' ? box.y + 40 : id === 'support-heatmap' ? box.y + 15 : box.y + box.height / 2;
      await h.page.mouse.move(box.x + box.width / 2, y);
      const tip = view(id).getByRole('status');
      await tip.waitFor();
      expect(await tip.innerText(), id).toMatch(re);
    }
    await h.page.mouse.move(0, 0);
  });

  it('exports PNG and SVG', async () => {
    const [svg] = await Promise.all([h.page.waitForEvent('download'), view('divergence').getByRole('button', { name: /as SVG/ }).click()]);
    expect(svg.suggestedFilename()).toMatch(/\.svg$/);
    const text = readFileSync((await svg.path())!, 'utf8');
    expect(text).toContain('xmlns="http://www.w3.org/2000/svg"');
    expect(text).not.toContain('role="slider"');
    const [png] = await Promise.all([h.page.waitForEvent('download'), view('ratio').getByRole('button', { name: /as PNG/ }).first().click()]);
    expect(readFileSync((await png.path())!).subarray(1, 4).toString()).toBe('PNG');
  });

  it('renders every view without data (before the first frame) without errors', async () => {
    const e = await openPage('nogpu', '/tests/browser/views.html?empty=1');
    try {
      await e.page.waitForSelector('body[data-ready="1"]', { state: 'attached', timeout: 30_000 });
      expect(await e.page.locator('section[data-view]').count()).toBe(VIEWS.length);
      expect(await e.page.getByText('no data yet').count()).toBeGreaterThanOrEqual(3);
      expect(e.errors).toEqual([]);
    } finally {
      await e.close();
    }
  });

  it('saves a screenshot of every view', async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    await h.page.screenshot({ path: `${ARTIFACTS}views.png`, fullPage: true });
    expect(h.errors).toEqual([]);
    expect(h.httpErrors).toEqual([]);
  });
});
