/**
 * Engine probe in real Chromium: onnxruntime-web inside a module Web Worker of the built site,
 * on SwiftShader WebGPU (GPU-resident outputs fed back) and on the WASM fallback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProbeRunResult, TensorJson } from '../browser/workers/probe.api';
import { openProbe, probeEnv, runProbe, type OpenedPage } from '../browser/harness';
import { matmulAddModel, matmulAddReference } from '../browser/models';

const N = 16;
const ROWS = 8;
const STEPS = 3;
const X: TensorJson = {
  type: 'float32',
  dims: [ROWS, N],
  data: Array.from({ length: ROWS * N }, (_, i) => Math.sin(i * 0.37)),
};
const W: TensorJson = {
  type: 'float32',
  dims: [N, N],
  data: Array.from({ length: N * N }, (_, i) => Math.cos(i * 0.11) / Math.sqrt(N)),
};
const REF = matmulAddReference(X.data, W.data, ROWS, N, STEPS);

function expectClose(got: number[], want: number[], tol = 1e-4): void {
  expect(got.length).toBe(want.length);
  const worst = Math.max(...got.map((g, i) => Math.abs(g - want[i]!) / (1 + Math.abs(want[i]!))));
  expect(worst).toBeLessThan(tol);
}

const chained = (backend: 'auto' | 'webgpu' | 'wasm', extra: object = {}) => ({
  model: matmulAddModel(N),
  feeds: { X, W },
  backend,
  steps: STEPS,
  feedback: { Y: 'X' },
  ...extra,
});

const results: Partial<Record<'webgpu' | 'wasm', ProbeRunResult>> = {};

describe('probe on SwiftShader WebGPU flags', () => {
  let h: OpenedPage;
  beforeAll(async () => {
    h = await openProbe('webgpu');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('is cross-origin isolated and sees a SwiftShader adapter in the worker', async () => {
    expect(await h.page.evaluate(() => crossOriginIsolated)).toBe(true);
    const env = await probeEnv(h.page);
    expect(env.crossOriginIsolated).toBe(true);
    expect(env.ortVersion).toBe('1.30.0');
    expect(env.adapter?.architecture).toBe('swiftshader');
  });

  it('auto picks WebGPU and keeps fed-back outputs on the GPU', async () => {
    const r = await runProbe(h.page, chained('auto'));
    expect(r.backend).toBe('webgpu');
    expect(r.fallbackReason).toBeUndefined();
    expect(r.feedbackLocations).toEqual(Array.from({ length: STEPS }, () => ['gpu-buffer']));
    expect(r.outputs.Y!.dims).toEqual([ROWS, N]);
    expectClose(r.outputs.Y!.data, REF);
    results.webgpu = r;
    console.log(`[probe] webgpu create ${r.createMs.toFixed(0)} ms, runs ${r.runMs.map((t) => t.toFixed(1)).join('/')} ms`);
  });

  it('runs a model built inside the page (onnx-proto in the Vite build)', async () => {
    const r = await h.page.evaluate(
      ({ x, w }) =>
        window.probe.run({
          model: window.probe.models.matmulAdd(16),
          feeds: { X: x, W: w },
          backend: 'webgpu',
          gpuResident: false,
          steps: 3,
          feedback: { Y: 'X' },
        }),
      { x: X, w: W },
    );
    expect(r.backend).toBe('webgpu');
    expect(r.feedbackLocations.flat()).toEqual(['cpu', 'cpu', 'cpu']);
    expectClose(r.outputs.Y!.data, REF);
  });

  it('threaded WASM works in the same page (2 threads need crossOriginIsolated)', async () => {
    const r = await runProbe(h.page, chained('wasm', { numThreads: 2 }));
    expect(r.backend).toBe('wasm');
    expect(r.numThreads).toBe(2);
    expectClose(r.outputs.Y!.data, REF);
  });

  it('logged no console errors', () => {
    expect(h.errors).toEqual([]);
    expect(h.httpErrors).toEqual([]);
  });
});

describe('probe with WebGPU disabled', () => {
  let h: OpenedPage;
  beforeAll(async () => {
    h = await openProbe('nogpu');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('has no WebGPU adapter', async () => {
    const env = await probeEnv(h.page);
    expect(env.adapter).toBeNull();
    expect(env.crossOriginIsolated).toBe(true);
  });

  it('auto falls back to WASM and says why', async () => {
    const r = await runProbe(h.page, chained('auto'));
    expect(r.backend).toBe('wasm');
    expect(r.fallbackReason).toMatch(/navigator\.gpu|requestAdapter/);
    expect(r.feedbackLocations.flat()).toEqual(['cpu', 'cpu', 'cpu']);
    expectClose(r.outputs.Y!.data, REF);
    results.wasm = r;
  });

  it('an explicit webgpu request fails instead of silently falling back', async () => {
    await expect(runProbe(h.page, chained('webgpu'))).rejects.toThrow(/no adapter/);
  });

  it('logged no console errors', () => {
    expect(h.errors).toEqual([]);
    expect(h.httpErrors).toEqual([]);
  });
});

describe('backends agree', () => {
  it('WebGPU and WASM outputs are equal within 1e-5 (relative)', () => {
    expect(results.webgpu && results.wasm).toBeTruthy();
    expectClose(results.webgpu!.outputs.Y!.data, results.wasm!.outputs.Y!.data, 1e-5);
  });
});
