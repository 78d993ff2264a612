/**
 * WebGPU device loss on SwiftShader: the browser engine reports a lost device through `engine.lost`
 * (the lab worker then stops the run with fault "device-lost" and the page resumes it on WASM: see
 * src/core/run/session.test.ts and src/ui/state/recovery.test.ts). The device is really destroyed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, type OpenedPage } from '../browser/harness';

type PageApi = { engineCheck: { deviceLoss(): Promise<{ backend: string; lost: string | null }> } };

describe('WebGPU device loss (SwiftShader)', () => {
  let h: OpenedPage;
  beforeAll(async () => {
    // a browser of its own: the test destroys its WebGPU device
    h = await openPage('webgpu', '/tests/browser/engine.html', { own: true });
    await h.page.waitForSelector('body[data-ready="1"]', { state: 'attached', timeout: 60_000 });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('destroying the device resolves engine.lost with the reason', async () => {
    const r = await h.page.evaluate(() => (window as unknown as PageApi).engineCheck.deviceLoss());
    expect(r.backend).toBe('webgpu');
    expect(r.lost).toMatch(/destroyed/);
  });
});
