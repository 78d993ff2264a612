/**
 * vitest globalSetup of the e2e project: builds the site plus the test fixture pages into dist-e2e/
 * (`vite build --mode e2e`; the shipped dist/ has no fixture pages) once before the browser tests.
 * INVLAB_SKIP_BUILD=1 reuses an existing dist-e2e/ (fast local iteration).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { E2E_MODE, E2E_OUT_DIR } from '../vite.config';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export default async function setup(): Promise<void> {
  if (process.env.INVLAB_SKIP_BUILD === '1' && existsSync(`${ROOT}/${E2E_OUT_DIR}/index.html`)) return;
  const t0 = Date.now();
  // vitest sets NODE_ENV=test, which would build Svelte's dev runtime (stack traces on every
  // reactive update: the lab redraws several times slower than the shipped site); test what ships.
  const env = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ root: ROOT, configFile: `${ROOT}/vite.config.ts`, mode: E2E_MODE, logLevel: 'warn' });
  } finally {
    process.env.NODE_ENV = env;
  }
  console.log(`[e2e] vite build: ${Date.now() - t0} ms`);
}
