/** The LineChart component in real Chromium, against the built site (the lab itself: lab.test.ts). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, type OpenedPage } from '../browser/harness';

describe('LineChart', () => {
  let h: OpenedPage;
  beforeAll(async () => {
    h = await openPage('nogpu', '/tests/browser/charts.html');
    await h.page.waitForSelector('body[data-ready="1"]', { state: 'attached' });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('draws one path per series', async () => {
    expect(await h.page.locator('svg path').count()).toBe(2);
  });

  it('hover shows the exact step and values', async () => {
    const box = await h.page.getByRole('slider').boundingBox();
    expect(box).not.toBeNull();
    // Steps 0..98; the middle of the plot is step 49 → nearest recorded step 48 or 50.
    await h.page.mouse.move(box!.x + box!.width / 2, box!.y + box!.height / 2);
    const tip = h.page.getByRole('status');
    await tip.waitFor();
    const text = await tip.innerText();
    const step = Number(/step (\d+)/.exec(text)?.[1]);
    expect([48, 50]).toContain(step);
    expect(text).toContain(`token: ${Number((2 - step / 100).toPrecision(5))}`);
    expect(text).toContain(`behavior s0: ${Number(Math.exp(-step / 30).toPrecision(5))}`);
  });

  it('keyboard moves the cursor step by step', async () => {
    await h.page.mouse.move(0, 0);
    await h.page.getByRole('slider').focus();
    await h.page.keyboard.press('Home');
    await h.page.keyboard.press('ArrowRight');
    expect(await h.page.getByRole('status').innerText()).toMatch(/^step 2\b/);
  });

  it('exports a standalone SVG and a PNG', async () => {
    const svg = await h.page.evaluate(() => window.chartSvg());
    expect(svg).toContain('xmlns="http://www.w3.org/2000/svg"');
    expect(svg.match(/<path /g)?.length).toBe(2);
    expect(svg).not.toContain('role="slider"');
    const png = await h.page.evaluate(() => window.chartPngSize());
    expect(png).toBeGreaterThan(1000);
    expect(h.errors).toEqual([]);
  });
});
