// The policy engine inside a real Web Worker in Chromium: WebGPU (SwiftShader) runs the train step
// with GPU-resident parameters and agrees with WASM in Node; with WebGPU disabled it falls back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../src/engine/node';
import { CHECK_SHAPE, engineCheck, type EngineCheckResult } from '../support/engine-check';
import { openPage, type OpenedPage } from '../browser/harness';

type BrowserResult = EngineCheckResult & { backend: string; note: string };
const SEED = 5;

async function inBrowser(h: OpenedPage, prefer: 'auto' | 'webgpu' | 'wasm'): Promise<BrowserResult> {
  await h.page.waitForSelector('body[data-ready="1"]', { state: 'attached', timeout: 30_000 });
  return h.page.evaluate(
    ([p, s]) => (window as unknown as { engineCheck: { check(p: string, s: number): Promise<BrowserResult> } }).engineCheck.check(p, s),
    [prefer, SEED] as const,
  );
}

/** Agreement within float32 tolerances (WebGPU reductions run in another order than WASM). */
function expectClose(a: EngineCheckResult, b: EngineCheckResult, tol: number) {
  expect(a.tokens).toEqual(b.tokens);
  a.sampleLogp.forEach((v, i) => expect(Math.abs(v - b.sampleLogp[i])).toBeLessThan(tol));
  a.scoreLogp.forEach((v, i) => expect(Math.abs(v - b.scoreLogp[i])).toBeLessThan(tol));
  a.train.forEach((m, k) => {
    for (const key of ['loss', 'pgLoss', 'ppoKl', 'entropy', 'gradNorm'] as const) expect(Math.abs(m[key] - b.train[k][key])).toBeLessThan(tol);
    expect(Math.abs(m.clipfracLow - b.train[k].clipfracLow)).toBeLessThan(0.02);
    expect(Math.abs(m.clipfracHigh - b.train[k].clipfracHigh)).toBeLessThan(0.02);
  });
  expect(Math.abs(a.sftLoss - b.sftLoss)).toBeLessThan(tol);
  a.finalLogp.forEach((v, i) => expect(Math.abs(v - b.finalLogp[i])).toBeLessThan(5 * tol));
}

describe('engine in a browser worker', () => {
  let reference: EngineCheckResult;
  beforeAll(async () => {
    const engine = await createNodeEngine(CHECK_SHAPE, { seed: SEED });
    reference = await engineCheck(engine);
    await engine.dispose();
  });

  describe('WebGPU (SwiftShader)', () => {
    let h: OpenedPage;
    beforeAll(async () => {
      h = await openPage('webgpu', '/tests/browser/engine.html');
    });
    afterAll(async () => h?.close());

    it('trains with GPU-resident parameters and agrees with WASM within 2e-3', async () => {
      const r = await inBrowser(h, 'webgpu');
      expect(r.backend).toBe('webgpu');
      expect(r.note).toMatch(/adapter/i);
      expect(r.paramsLocation).toBe('gpu-buffer');
      expect(r.train.some((m) => m.clipfracLow + m.clipfracHigh > 0)).toBe(true);
      expectClose(r, reference, 2e-3);
      expect(h.errors, h.errors.join("\n")).toEqual([]);
    });
  });

  describe('WebGPU disabled', () => {
    let h: OpenedPage;
    beforeAll(async () => {
      h = await openPage('nogpu', '/tests/browser/engine.html');
    });
    afterAll(async () => h?.close());

    it('falls back to WASM, says why, and matches Node', async () => {
      const r = await inBrowser(h, 'auto');
      expect(r.backend).toBe('wasm');
      expect(r.note).toMatch(/fell back to WASM/);
      expect(r.paramsLocation).toBe('cpu');
      expectClose(r, reference, 1e-4);
    });
  });
});
