/**
 * The built lab under its Content-Security-Policy (vite.config.ts CSP): the page carries it as a
 * <meta>, the server also sends it as a header (so the workers run under it too), and the lab loads,
 * starts its WASM engine in the worker and trains a step without a CSP violation. Positive control:
 * an injected inline script is blocked and reported.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSP, CSP_HEADER } from '../../vite.config';
import { launchChromium, type LaunchedBrowser } from '../../src/cli/browser/chromium';
import { DIST } from '../browser/harness';
import { serveStatic, type StaticServer } from '../../src/cli/browser/static-server';
import { cspViolations, recordCspViolations } from './csp-violations';

const TINY = 'dModel=16&layers=1&heads=2&mlp=32&rolloutBatch=8&behaviorSamples=8&pretrain=20&steps=5';


describe('Content-Security-Policy of the built lab', () => {
  let server: StaticServer;
  let b: LaunchedBrowser;
  beforeAll(async () => {
    server = await serveStatic(DIST, 0, { 'Content-Security-Policy': CSP_HEADER });
    b = await launchChromium('nogpu');
    await recordCspViolations(b.context);
  }, 120_000);
  afterAll(async () => {
    await b?.close();
    await server?.close();
  });

  it('loads, starts the engine and trains a step without violations', async () => {
    const res = await b.page.goto(`${server.url}/?${TINY}`, { waitUntil: 'load' });
    expect(res?.headers()['content-security-policy']).toBe(CSP_HEADER);
    expect(await b.page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')).toBe(CSP);
    const ready = () =>
      b.page.waitForFunction(() => {
        const play = document.querySelector<HTMLButtonElement>('.transport .play');
        return !!play && !play.disabled && !document.querySelector('[data-testid=status]')?.textContent?.includes('…');
      }, null, { timeout: 150_000 });
    await ready();
    await b.page.getByLabel('Steps per Step-N press').fill('1');
    await b.page.getByRole('button', { name: 'Step 1', exact: true }).click();
    await b.page.waitForFunction(() => Number(document.querySelector('[data-testid=step] b')?.textContent) >= 1, null, { timeout: 120_000 });
    expect(await cspViolations(b.page)).toEqual([]);
    expect(b.errors.filter((e) => /Content Security Policy|CSP/i.test(e))).toEqual([]);
    expect(b.errors).toEqual([]);
  }, 300_000);

  it('blocks an injected inline script (the policy is enforced)', async () => {
    const ran = await b.page.evaluate(async () => {
      // an allowed inline script runs as it is inserted; a blocked one fires the violation event
      const refused = new Promise((r) => document.addEventListener('securitypolicyviolation', r, { once: true }));
      const s = document.createElement('script');
      s.textContent = 'window.__inlineRan = true';
      document.body.append(s);
      if (!(window as unknown as { __inlineRan?: boolean }).__inlineRan) await refused;
      return (window as unknown as { __inlineRan?: boolean }).__inlineRan === true;
    });
    expect(ran).toBe(false);
    expect((await cspViolations(b.page)).some((v) => v.startsWith('script-src'))).toBe(true);
  });
});
