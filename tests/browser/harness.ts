/**
 * E2E harness: the engine probe page over src/cli/browser/open-page.ts (serve dist-e2e/, open a page in Debian's Chromium).
 *
 *   const h = await openPage('webgpu', '/tests/browser/probe.html');
 *   const r = await runProbe(h.page, { model, feeds, backend: 'auto' });
 *   await h.close();
 */
import type { Page } from 'playwright-core';
import type { BrowserProfile, LaunchOptions } from '../../src/cli/browser/chromium';
import { openPage, type OpenedPage } from '../../src/cli/browser/open-page';
import type { ProbeEnv, ProbeRunResult } from './workers/probe.api';
import { toBase64 } from './models';
import type { ProbeRunRequestJson } from './probe';

export { DIST, openPage, type OpenedPage } from '../../src/cli/browser/open-page';
export const PROBE_PATH = '/tests/browser/probe.html';

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
