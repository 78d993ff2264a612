/**
 * "auto" chooses the backend by measurement (src/engine/browser.ts): on the SwiftShader adapter the
 * bounded WebGPU probe runs out (a software adapter is never chosen unless it measured faster), the
 * lab ends on WASM and its badge says why with the WASM figure; the choice is kept (IndexedDB), so
 * the next load does not probe again. Time-to-ready is measured against backend=wasm in the same
 * browser (logged; the bound is loose: the probe must add seconds, not a minute).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, type OpenedPage } from '../browser/harness';
import { TINY_MODEL, ready } from './lab-page';

const URL_OF = (backend: string) => `/?v=1&${TINY_MODEL}&backend=${backend}`;

describe('backend chosen by measurement (SwiftShader adapter)', () => {
  let h: OpenedPage;
  beforeAll(async () => {
    h = await openPage('webgpu', URL_OF('wasm'));
  });
  afterAll(async () => {
    await h?.close();
  });

  async function timeToReady(backend: string): Promise<number> {
    const t0 = Date.now();
    await h.page.goto(h.server.url + URL_OF(backend), { waitUntil: 'load' });
    await ready(h.page, 180_000);
    return (Date.now() - t0) / 1000;
  }
  const why = () => h.page.locator('[data-testid=backend-why]').innerText();

  it('auto ends on WASM, says both figures and why, and adds seconds to time-to-ready, not a minute', async () => {
    await ready(h.page, 180_000); // the first load warms the browser's caches
    const wasm = await timeToReady('wasm');
    expect(await why()).toBe('WASM chosen in the settings');
    const auto = await timeToReady('auto');
    const badge = await h.page.locator('[data-testid=backend]').innerText();
    expect(badge).toMatch(/^WASM/);
    expect(await why()).toMatch(/^WebGPU \(software adapter\) did not finish its \d+ s probe vs WASM [\d.]+ steps\/s: WASM$/);
    expect(badge).toMatch(/WebGPU adapter: .*swiftshader.*\(software rasterizer\)/i);
    // kept per adapter + code version: the next load takes the choice without probing
    const cached = await timeToReady('auto');
    expect(await h.page.locator('[data-testid=backend]').innerText()).toMatch(/measured on .* kept for this adapter and code version/);
    console.log(`[backend-choice] time to ready: wasm ${wasm.toFixed(1)} s, auto (probing) ${auto.toFixed(1)} s, auto (kept choice) ${cached.toFixed(1)} s`);
    expect(auto - wasm).toBeLessThan(20);
    expect(h.errors).toEqual([]);
  });
});
