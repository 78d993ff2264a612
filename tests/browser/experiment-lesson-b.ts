/**
 * Lesson b as an 8-seed experiment in the browser (not part of `npm test`: 16 cells x 12 steps of
 * the reference model take minutes). Run after `npx vite build`:
 *
 *   npx tsx tests/browser/experiment-lesson-b.ts [OUT_DIR] [DIST_DIR]
 *
 * Opens the experiments page (WASM), loads the shipped lesson experiment b-clip-higher, trains it,
 * prints the paired-comparison panel (P(verify | code) over steps 1–12), saves a 1280x720
 * screenshot and the exported bundle, which `npm run experiment -- report|reproduce` reads.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { launchChromium } from '../../src/cli/browser/chromium';
import { DIST } from './harness';
import { serveStatic } from '../../src/cli/browser/static-server';

const out = process.argv[2] ?? 'test-results';
mkdirSync(out, { recursive: true });
const server = await serveStatic(process.argv[3] ?? DIST);
const h = await launchChromium('nogpu');
const page = h.page;
await page.goto(`${server.url}/index.html?page=experiments&backend=wasm`);
await page.setViewportSize({ width: 1280, height: 720 });
try {
  await page.getByText('No experiment open').waitFor({ timeout: 60_000 });
  await page.getByLabel('lesson experiment').selectOption('b-clip-higher');
  await page.getByLabel('keep latest weights').setChecked(false);
  const t0 = Date.now();
  await page.getByRole('button', { name: 'Create and train' }).click();
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=exp-step] b')?.textContent) >= 12, null, { timeout: 1_800_000, polling: 1000 });
  await page.getByRole('button', { name: 'Run', exact: true }).and(page.locator('[disabled]')).waitFor();
  console.log(`trained 16 cells x 12 steps in ${((Date.now() - t0) / 1000).toFixed(0)} s; ${await page.getByTestId('exp-status').innerText()}`);
  console.log(await page.getByTestId('paired').innerText());
  await page.screenshot({ path: `${out}/experiment-lesson-b.png` });
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON' }).click()]);
  writeFileSync(`${out}/lesson-b-browser.experiment.json`, readFileSync((await dl.path())!));
  console.log(`bundle: ${out}/lesson-b-browser.experiment.json`);
} catch (e) {
  await page.screenshot({ path: `${out}/experiment-lesson-b-failure.png` });
  console.error(e, h.errors, h.console.slice(-10));
  process.exitCode = 1;
} finally {
  await h.close();
  await server.close();
}
