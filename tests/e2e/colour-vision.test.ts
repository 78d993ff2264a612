/**
 * Every plot reads without colour (issue 43 §2): in real Chromium under its colour-vision emulation
 * (CDP Emulation.setEmulatedVisionDeficiency: deuteranopia, protanopia, achromatopsia), every pair
 * of series in one chart's legend — the headline, Metrics over time, the ratio view's clip chart,
 * the invariant panels, the behavior distribution, the ratio histogram's bars inside / below / above
 * the clip band — is told apart by a second channel (marker shape, hatch) or, failing that, by a
 * lightness difference in the emulated screenshot of their keys that reads at a glance (ΔL* ≥ 20).
 * The plot itself draws each series' shape and each ratio bar its side's hatch. Screenshots in
 * test-results/.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, type OpenedPage } from '../browser/harness';
import { scaled } from '../support/speed';
import { ARTIFACTS, TINY_MODEL, ready, stepN } from './lab-page';

const VISIONS = ['deuteranopia', 'protanopia', 'achromatopsia'] as const;
/** CIELAB lightness difference that reads as "another grey" at a glance. */
const MIN_DL = 20;

interface Key {
  chart: string;
  label: string;
  /** The second channel: marker shape or hatch ('' = colour only). */
  channel: string;
  /** Its index among all legend keys of the page ('figure.iv-view .legend .key'). */
  index: number;
}

const KEYS = 'figure.iv-view .legend .key';

/** Every legend key of every chart view on the page, with its second channel. */
async function legendKeys(page: Page): Promise<Key[]> {
  const keys = await page.evaluate((sel) =>
    [...document.querySelectorAll<HTMLElement>(sel)].map((k, index) => {
      const shape = k.querySelector('svg[data-shape]')?.getAttribute('data-shape');
      const hatch = k.getAttribute('data-hatch');
      const chart = k.closest('figure')?.querySelector('.title')?.textContent ?? '?';
      return { chart, index, label: k.textContent?.trim() ?? '', channel: shape != null ? `shape ${shape}` : hatch ? `hatch ${hatch}` : '' };
    }),
  KEYS);
  // the compare run's "dashed: …" key is not a series
  return keys.filter((k) => !k.label.startsWith('dashed:'));
}

/** CIELAB L* of the key's colour as seen (the pixel farthest from white in its emulated screenshot). */
async function lightness(page: Page, decoder: Page, key: Key): Promise<number> {
  const png = await page.locator(KEYS).nth(key.index).locator('svg, i').first().screenshot({ animations: 'disabled' });
  // decoded in a blank page: the lab's content security policy (rightly) refuses data: URLs
  return decoder.evaluate(async (b64) => {
    const bmp = await createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
    const ctx = new OffscreenCanvas(bmp.width, bmp.height).getContext('2d')!;
    ctx.drawImage(bmp, 0, 0);
    const d = ctx.getImageData(0, 0, bmp.width, bmp.height).data;
    let best = [255, 255, 255];
    let far = -1;
    for (let i = 0; i < d.length; i += 4) {
      const dist = (255 - d[i]) ** 2 + (255 - d[i + 1]) ** 2 + (255 - d[i + 2]) ** 2;
      if (dist > far) [far, best] = [dist, [d[i], d[i + 1], d[i + 2]]];
    }
    const lin = best.map((c) => ((c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    const y = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
    return y > 216 / 24389 ? 116 * Math.cbrt(y) - 16 : (24389 / 27) * y;
  }, png.toString('base64'));
}

describe('plots read without colour (Chromium colour-vision emulation)', () => {
  let h: OpenedPage;
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    // K = 4 passes and a narrow clip band (its edges on bin edges): the ratio histogram has bars inside and outside it
    h = await openPage('nogpu', `/?v=1&${TINY_MODEL}&backend=wasm&views=behavior,metrics,ratio,invariants&updatesPerRollout=4&clipLow=0.05&clipHigh=0.05`);
    await h.page.setViewportSize({ width: 1280, height: 800 });
    await ready(h.page);
    // one state picked: the headline shows it beside the average over states (five series)
    await h.page.locator('section[aria-label^="Divergence plot"] select').first().selectOption({ index: 1 });
    await stepN(h.page, 3);
  }, scaled(180_000));
  afterAll(async () => {
    await h?.close();
  });

  it('every pair of series in a chart differs in shape or hatch, or in lightness as seen', async () => {
    const page = h.page;
    const keys = await legendKeys(page);
    const charts = [...new Set(keys.map((k) => k.chart))];
    expect(charts.length).toBeGreaterThanOrEqual(6);
    // the ratio histogram's bars: one key per side of the clip band, each its own hatch
    const ratio = keys.filter((k) => k.chart.startsWith('PPO ratio'));
    expect(ratio.map((k) => k.label)).toEqual(['inside the clip band', 'below 1 − ε_low', 'above 1 + ε_high', 'bin across a band edge']);
    expect(new Set(ratio.map((k) => k.channel)).size).toBe(4);
    const cdp = await h.context.newCDPSession(page);
    const decoder = await h.context.newPage();
    const clash: string[] = [];
    try {
      for (const type of VISIONS) {
        await cdp.send('Emulation.setEmulatedVisionDeficiency', { type });
        await page.screenshot({ path: `${ARTIFACTS}colour-vision-${type}-1280x800.png` });
        await page.locator('figure.iv-view').first().screenshot({ path: `${ARTIFACTS}colour-vision-${type}-headline.png` });
        await page.locator('figure.iv-view', { hasText: 'Which behaviors' }).screenshot({ path: `${ARTIFACTS}colour-vision-${type}-behavior.png` });
        await page.locator('figure.iv-view', { hasText: 'PPO ratio' }).screenshot({ path: `${ARTIFACTS}colour-vision-${type}-ratio.png` });
        const L = new Map<Key, number>();
        for (const k of keys) L.set(k, await lightness(page, decoder, k));
        for (const chart of charts) {
          const ks = keys.filter((k) => k.chart === chart);
          for (let i = 0; i < ks.length; i++)
            for (let j = i + 1; j < ks.length; j++) {
              if (ks[i].channel && ks[i].channel !== ks[j].channel) continue;
              const dl = Math.abs(L.get(ks[i])! - L.get(ks[j])!);
              if (dl < MIN_DL) clash.push(`${type} · ${chart}: "${ks[i].label}" ~ "${ks[j].label}" (same ${ks[i].channel || 'colour-only channel'}, ΔL* ${dl.toFixed(1)})`);
            }
        }
      }
    } finally {
      await cdp.send('Emulation.setEmulatedVisionDeficiency', { type: 'none' });
      await cdp.detach();
      await decoder.close();
    }
    expect(clash).toEqual([]);
  }, scaled(180_000));

  it('the plots draw each series\' shape along its line', async () => {
    const drawn = await h.page.evaluate(() =>
      [...document.querySelectorAll('figure.iv-view')].flatMap((fig) =>
        [...fig.querySelectorAll('.legend .key svg[data-shape]')].map((key) => {
          const label = key.closest('.key')?.getAttribute('data-series') ?? '';
          const g = [...fig.querySelectorAll('svg g[data-series]')].find((x) => x.getAttribute('data-series') === label);
          return { label, same: g?.getAttribute('data-shape') === key.getAttribute('data-shape'), marks: g?.querySelectorAll('path').length ?? 0 };
        }),
      ),
    );
    expect(drawn.length).toBeGreaterThan(10);
    expect(drawn.filter((d) => !d.same || d.marks === 0)).toEqual([]);
  });

  it('the ratio histogram draws each bar with the hatch of its side\'s legend key', async () => {
    const fig = h.page.locator('figure.iv-view', { hasText: 'PPO ratio' });
    const keyHatch = Object.fromEntries(
      await fig.locator('.legend .key').evaluateAll((ks) => ks.map((k) => [k.getAttribute('data-series'), k.getAttribute('data-hatch')])),
    );
    const bars = await fig.locator('svg g[data-side]').evaluateAll((gs) =>
      gs.map((g) => {
        const fill = g.querySelectorAll('rect')[1]?.getAttribute('fill') ?? '';
        const id = /^url\(#(.+)\)$/.exec(fill)?.[1];
        return { side: g.getAttribute('data-side'), hatch: g.getAttribute('data-hatch'), pattern: !!id && !!document.getElementById(id)?.querySelector('path') };
      }),
    );
    const LABEL: Record<string, string> = { inside: 'inside the clip band', low: 'below 1 − ε_low', high: 'above 1 + ε_high', straddle: 'bin across a band edge' };
    // this seed's run has bars inside the band and outside it
    expect(bars.map((b) => b.side)).toContain('inside');
    expect(bars.filter((b) => b.side === 'low' || b.side === 'high').length).toBeGreaterThan(0);
    for (const b of bars) {
      expect(b.hatch, b.side!).toBe(keyHatch[LABEL[b.side!]]);
      expect(b.pattern, b.side!).toBe(b.hatch !== 'none');
    }
  });
});
