/** `npm start` (the Vite dev server) serves the lab cross-origin isolated. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, type LaunchedBrowser } from '../../src/cli/browser/chromium';
import { ROOT } from '../global-setup';
import { scaled } from '../support/speed';

describe('vite dev server', () => {
  let server: ViteDevServer;
  let b: LaunchedBrowser;
  let url: string;
  const cacheDir = mkdtempSync(join(tmpdir(), 'invlab-vite-'));
  beforeAll(async () => {
    server = await createServer({
      root: ROOT,
      configFile: `${ROOT}/vite.config.ts`,
      cacheDir,
      logLevel: 'warn',
      server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false },
    });
    await server.listen();
    url = server.resolvedUrls?.local[0] ?? '';
    b = await launchChromium('nogpu');
  });
  afterAll(async () => {
    await b?.close();
    await server?.close();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it('serves the lab with COOP/COEP and no console errors', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    // the dev server transforms the whole module graph on this first request: 30 s was not enough on a loaded CI machine
    const res = await b.page.goto(url, { timeout: scaled(90_000) });
    expect(res?.headers()['cross-origin-embedder-policy']).toBe('require-corp');
    await b.page.getByRole('heading', { name: 'Invariant Lab' }).waitFor({ timeout: scaled(25_000) });
    expect(await b.page.evaluate(() => crossOriginIsolated)).toBe(true);
    expect(b.errors).toEqual([]);
  });
});
