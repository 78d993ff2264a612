/**
 * vitest globalSetup of the e2e project: builds the site into dist/ once before the browser tests.
 * INVLAB_SKIP_BUILD=1 reuses an existing dist/ (fast local iteration).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export default async function setup(): Promise<void> {
  if (process.env.INVLAB_SKIP_BUILD === '1' && existsSync(`${ROOT}/dist/index.html`)) return;
  const t0 = Date.now();
  await build({ root: ROOT, configFile: `${ROOT}/vite.config.ts`, logLevel: 'warn' });
  console.log(`[e2e] vite build: ${Date.now() - t0} ms`);
}
