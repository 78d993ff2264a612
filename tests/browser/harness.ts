/**
 * E2E harness: serve the e2e build (dist-e2e/: the lab plus the fixture pages) and open a page in Debian's Chromium.
 *
 *   const h = await openPage('webgpu', '/tests/browser/probe.html');
 *   const r = await runProbe(h.page, { model, feeds, backend: 'auto' });
 *   await h.close();
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import type { ProbeEnv, ProbeRunResult } from './workers/probe.api';
import { launchChromium, type BrowserProfile, type LaunchedBrowser, type LaunchOptions } from './chromium';
import { toBase64 } from './models';
import type { ProbeRunRequestJson } from './probe';
import { serveStatic, type StaticServer } from './server';

export const DIST = fileURLToPath(new URL('../../dist-e2e', import.meta.url));
export const PROBE_PATH = '/tests/browser/probe.html';

export interface OpenedPage extends LaunchedBrowser {
  server: StaticServer;
}

/** Serve dist-e2e/, launch Chromium with `profile`, navigate to `path`. `close()` stops both. */
export async function openPage(
  profile: BrowserProfile,
  path: string,
  opts: LaunchOptions = {},
): Promise<OpenedPage> {
  if (!existsSync(`${DIST}/index.html`)) throw new Error(`${DIST} not built (run vite build --mode e2e)`);
  const server = await serveStatic(DIST);
  let browser: LaunchedBrowser;
  try {
    browser = await launchChromium(profile, opts);
  } catch (err) {
    await server.close();
    throw err;
  }
  const close = async (): Promise<void> => {
    await browser.close();
    await server.close();
  };
  try {
    await browser.page.goto(server.url + path, { waitUntil: 'load' });
  } catch (err) {
    await close();
    throw err;
  }
  return { ...browser, server, close };
}

/** Open the engine probe page and wait until `window.probe` is ready. */
export async function openProbe(profile: BrowserProfile, opts: LaunchOptions = {}): Promise<OpenedPage> {
  const h = await openPage(profile, PROBE_PATH, opts);
  try {
    await h.page.waitForSelector('body[data-ready="1"]', { state: 'attached', timeout: 30_000 });
  } catch (err) {
    await h.close();
    throw new Error(`probe page not ready: ${String(err)}; errors: ${h.errors.join(' | ')}`);
  }
  return h;
}

/** Input of `runProbe`: a probe request with the model as bytes (built in Node). */
export type ProbeRequestBytes = Omit<ProbeRunRequestJson, 'model'> & { model: Uint8Array };

/** Run a model in a fresh probe worker of the page. */
export function runProbe(page: Page, req: ProbeRequestBytes): Promise<ProbeRunResult> {
  const json: ProbeRunRequestJson = { ...req, model: toBase64(req.model) };
  return page.evaluate((r) => window.probe.run(r), json);
}

/** Environment seen inside a probe worker (crossOriginIsolated, adapter...). */
export function probeEnv(page: Page): Promise<ProbeEnv> {
  return page.evaluate(() => window.probe.env());
}
