/**
 * Every run reproducible from its seed where the base is pretrained in the page (`pretrain=N`, a
 * custom task): in real Chromium on WASM, the same link opened in a fresh profile, and again in the
 * same profile after a reload (or the link reopened) and "Start fresh", gives bit-identical frames;
 * and the base the page pretrained is, bit for bit, the one `npm run pretrain` computes for it.
 * (The reused worker's engine held the restored run's weights, and pretraining started from them:
 * another base, 490 of 713 cells different from step 1 on.)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { pretrainCheckpoint } from '../../src/cli/pretrain';
import { BUILTIN_TASKS } from '../../src/core/tasks/builtin';
import { openPage, type OpenedPage } from '../browser/harness';
import { waitUntil } from '../support/poll';
import { scaled } from '../support/speed';
import { exportJson, ready, status, stepCount, stepN } from './lab-page';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** SFT steps pretrained in the page (the link had 60; the same rule holds for any budget). */
const PRETRAIN = 20;
const LONG = scaled(300_000);

interface Exported {
  frames: { step: number; scalars: Record<string, number>; series: Record<string, number[]> }[];
}
const deterministic = (e: Exported) => e.frames.map((f) => ({ step: f.step, scalars: f.scalars, series: f.series }));

/** Wait until the stored state (the header's "keep state" line) is at `step`. */
async function stateStoredAt(page: Page, step: number): Promise<void> {
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid=stored-state]')?.getAttribute('data-step') ?? -1) === n, step, { timeout: LONG });
}

/** The frozen base of the lab's stored run (its snapshot, read from IndexedDB itself), as bytes. */
async function storedBase(page: Page): Promise<Float32Array> {
  const b64 = await page.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        const req = indexedDB.open('invariant-lab');
        req.onerror = () => reject(req.error);
        req.onsuccess = () => {
          const db = req.result;
          const tx = db.transaction(['meta', 'weights']);
          const id = tx.objectStore('meta').get('lab-run');
          id.onsuccess = () => {
            const w = tx.objectStore('weights').get([id.result as string, 0]);
            w.onsuccess = () => {
              const base = (w.result as { snapshot?: { base: Float32Array } } | undefined)?.snapshot?.base;
              if (!base) return reject(new Error('no stored snapshot'));
              const bytes = new Uint8Array(base.buffer, base.byteOffset, base.byteLength);
              let s = '';
              for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
              resolve(btoa(s));
            };
          };
          tx.oncomplete = () => db.close();
        };
      }),
  );
  const buf = Buffer.from(b64, 'base64');
  return new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
}

/** How many entries differ (bitwise: -0 ≠ 0, NaN = NaN of the same bits). */
function differing(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return Math.max(a.length, b.length);
  const x = new Uint32Array(a.buffer, a.byteOffset, a.length);
  const y = new Uint32Array(b.buffer, b.byteOffset, b.length);
  let n = 0;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) n++;
  return n;
}

/** A fresh run of the page's link: 3 steps, exported. */
async function threeSteps(page: Page): Promise<Exported> {
  await ready(page, LONG);
  expect(await stepCount(page)).toBe(0);
  await stepN(page, 3);
  return exportJson<Exported>(page);
}

/**
 * Open `path` in profile A, 3 steps; back to the link in the same profile (`again`: a reload, or the
 * link reopened), which restores the stored run; "Start fresh", 3 steps; the link in a fresh
 * profile B, 3 steps. The three runs' frames and A's base after the fresh start are returned.
 */
async function sameLinkThreeWays(path: string, again: (h: OpenedPage) => Promise<unknown>, opened: OpenedPage[]): Promise<{ runs: Exported[]; base: Float32Array }> {
  const a = await openPage('nogpu', path);
  opened.push(a);
  const first = await threeSteps(a.page);
  await stateStoredAt(a.page, 3);
  await again(a);
  await ready(a.page, LONG);
  expect(await status(a.page)).toMatch(/Restored the run stored in this browser at step 3: /);
  // every value the step counter shows from the click on (it must go back to 0 at once, also while the base is pretrained)
  await a.page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { counterSeen: string[] }).counterSeen = seen;
    const counter = document.querySelector('[data-testid=step]')!;
    new MutationObserver(() => seen.push(counter.querySelector('b')?.textContent ?? '')).observe(counter, { subtree: true, childList: true, characterData: true });
  });
  await a.page.getByRole('button', { name: 'Start fresh' }).click();
  // the fresh run is ready when the restore's message is gone
  const isFresh = () => a.page.evaluate(() => document.querySelector('[data-testid=step] b')?.textContent === '0' && !/Restored the run|…/.test(document.querySelector('[data-testid=status]')?.textContent ?? '…'));
  await waitUntil(isFresh, { timeout: LONG, every: 300, what: 'the fresh run after Start fresh' });
  expect(new Set(await a.page.evaluate(() => (window as unknown as { counterSeen: string[] }).counterSeen))).toEqual(new Set(['0']));
  const restarted = await threeSteps(a.page);
  await stateStoredAt(a.page, 3);
  const base = await storedBase(a.page);
  expect(a.errors).toEqual([]);
  await a.close();
  const b = await openPage('nogpu', path);
  opened.push(b);
  const fresh = await threeSteps(b.page);
  expect(b.errors).toEqual([]);
  await b.close();
  return { runs: [first, restarted, fresh], base };
}

describe('a base pretrained in the page is reproducible from the seed (WASM)', () => {
  const opened: OpenedPage[] = [];
  afterEach(async () => {
    for (const h of opened.splice(0)) await h.close().catch(() => undefined);
  });

  it(`lesson c with pretrain=${PRETRAIN}: a reload + "Start fresh" and a fresh profile give the same frames; the base is npm run pretrain's`, async () => {
    const { runs, base } = await sameLinkThreeWays(`/?v=1&lesson=c-clip-never-binds&pretrain=${PRETRAIN}&backend=wasm`, (h) => h.page.reload(), opened);
    const [first, restarted, fresh] = runs.map(deterministic);
    expect(first).toHaveLength(3);
    expect(restarted).toEqual(first);
    expect(fresh).toEqual(first);
    // what `npm run pretrain -- --task strategies --steps 60` computes (seed 0, lr 3e-3, batch 64)
    const cli = await pretrainCheckpoint(BUILTIN_TASKS.strategies, { steps: PRETRAIN, lr: 3e-3, batch: 64, seed: 0 });
    expect(base.length).toBe(cli.weights.length);
    expect(differing(base, cli.weights)).toBe(0);
  }, scaled(1_200_000));

  it('a custom task in the link, reopened in the same browser: the same frames as a fresh profile; the base is npm run pretrain --task-file', async () => {
    const spec = JSON.stringify(JSON.parse(readFileSync(join(ROOT, 'public/tasks/triage.json'), 'utf8')));
    const path = `/?v=1&spec=${encodeURIComponent(spec)}&pretrain=${PRETRAIN}&backend=wasm`;
    const { runs, base } = await sameLinkThreeWays(path, (h) => h.page.goto(`${h.server.url}${path}`, { waitUntil: 'load' }), opened);
    const [first, restarted, fresh] = runs.map(deterministic);
    expect(restarted).toEqual(first);
    expect(fresh).toEqual(first);
    // the CLI itself, as a user runs it
    const out = join(mkdtempSync(join(tmpdir(), 'invlab-repro-')), 'base.f32');
    execFileSync(process.execPath, [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'src/cli/pretrain.ts', '--task-file', 'public/tasks/triage.json', '--steps', String(PRETRAIN), '--out', out], { cwd: ROOT, stdio: 'pipe' });
    const buf = readFileSync(out);
    const cli = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
    expect(base.length).toBe(cli.length);
    expect(differing(base, cli)).toBe(0);
  }, scaled(1_200_000));
});
