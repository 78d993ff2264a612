import { describe, expect, it } from 'vitest';
import { choiceNote, decideBackend, isSoftwareAdapter, webgpuProbeLimitMs } from './backend-choice';

const gpu = { detail: 'nvidia / hopper / NVIDIA H200', software: false };
const swiftshader = { detail: 'google / swiftshader', software: true };

describe('decideBackend', () => {
  it('takes the faster measured backend and says both figures', () => {
    expect(decideBackend({ kind: 'measured', stepsPerSecond: 3.14 }, 9.8, gpu)).toMatchObject({ backend: 'wasm', summary: 'WebGPU 3.1 steps/s vs WASM 9.8: WASM' });
    expect(decideBackend({ kind: 'measured', stepsPerSecond: 42 }, 9.8, gpu)).toMatchObject({ backend: 'webgpu', summary: 'WebGPU 42 steps/s vs WASM 9.8: WebGPU' });
  });

  it('a software adapter wins only when it measured faster; running out of time counts as slower', () => {
    expect(decideBackend({ kind: 'measured', stepsPerSecond: 12 }, 9.8, swiftshader).backend).toBe('webgpu');
    expect(decideBackend({ kind: 'ran-out', limitMs: 3000 }, 0.5, swiftshader)).toMatchObject({
      backend: 'wasm', summary: 'WebGPU (software adapter) did not finish its 3 s probe vs WASM 0.50 steps/s: WASM',
    });
    expect(decideBackend({ kind: 'failed', error: 'no device' }, 9.8, gpu)).toMatchObject({ backend: 'wasm', summary: 'WebGPU probe failed (no device) vs WASM 9.8 steps/s: WASM' });
  });

  it('bounds the probe of a software adapter to a few seconds', () => {
    expect(webgpuProbeLimitMs(swiftshader)).toBeLessThanOrEqual(5000);
    expect(webgpuProbeLimitMs(gpu)).toBeGreaterThan(webgpuProbeLimitMs(swiftshader));
  });

  it('the note starts with the summary and names the adapter', () => {
    const c = decideBackend({ kind: 'measured', stepsPerSecond: 3.1 }, 9.8, gpu);
    const lines = choiceNote(c, gpu, { size: 8, batch: 16 }, '2026-12-01 15:00 UTC').split('\n');
    expect(lines[0]).toBe('WebGPU 3.1 steps/s vs WASM 9.8: WASM');
    expect(lines[1]).toMatch(/population of 8, 16 rows.*measured on 2026-12-01 15:00 UTC/);
    expect(lines[2]).toBe('WebGPU adapter: nvidia / hopper / NVIDIA H200');
  });
});

describe('isSoftwareAdapter', () => {
  it('knows the software rasterizers and the fallback flag', () => {
    expect(isSoftwareAdapter({ vendor: 'google', architecture: 'swiftshader' })).toBe(true);
    expect(isSoftwareAdapter({ vendor: 'mesa', description: 'llvmpipe (LLVM 15.0.6, 256 bits)' })).toBe(true);
    expect(isSoftwareAdapter({ vendor: 'nvidia', architecture: 'hopper' })).toBe(false);
    expect(isSoftwareAdapter({ vendor: 'nvidia' }, true)).toBe(true);
    expect(isSoftwareAdapter({ vendor: 'intel', isFallbackAdapter: true })).toBe(true);
  });
});
