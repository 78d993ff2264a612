/**
 * The lab in real Chromium against the built site: worker-run training on WASM (WebGPU disabled)
 * and on SwiftShader WebGPU, live config patches, lesson URLs, invalid URLs, fork/compare.
 * Runs use a tiny model (URL settings) and a short in-worker pretraining so that the whole file
 * stays well under two minutes on two cores; SwiftShader gets a single step.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openPage, type OpenedPage } from '../browser/harness';
import { ARTIFACTS, TINY_MODEL, exportJson, labWorkerWasm, ready, setNumber, stepCount, stepN, waitStep } from './lab-page';

const TINY = TINY_MODEL;

/** Tiny model + small batches; `pretrain` forces a short in-worker pretraining (no checkpoint fits). */

interface Exported {
  config: Record<string, unknown>;
  timeline: { step: number; patch: Record<string, unknown> }[];
  frames: { step: number; scalars: Record<string, number>; changes: Record<string, unknown> }[];
}

/** On a failure, what the page said: console errors, HTTP errors, the status line. */
function report(h: OpenedPage | undefined): void {
  if (!h) return;
  console.error(`[lab e2e] url ${h.page.url()}\n  errors: ${h.errors.join(' | ') || 'none'}\n  http: ${h.httpErrors.join(' | ') || 'none'}\n  console tail: ${h.console.slice(-5).join(' | ')}`);
}

/** Number of points of the longest series line in the headline plot (data-line: not a marker shape or legend key). */
async function headlinePoints(page: Page): Promise<number> {
  return page.evaluate(() => {
    const paths = [...document.querySelectorAll('section[aria-label="Divergence plot"] svg path[data-line]')];
    return Math.max(0, ...paths.map((p) => (p.getAttribute('d')?.match(/[LMH]/g) ?? []).length));
  });
}

describe('lab on WASM (WebGPU disabled)', () => {
  let h: OpenedPage;
  beforeAll(async () => {
    h = await openPage('nogpu', `/?v=1&${TINY}`);
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(({ onTestFailed }) => onTestFailed(() => report(h)));

  it('paints before the engine is warm, then reports the WASM fallback', async () => {
    await h.page.getByRole('heading', { name: 'Invariant Lab' }).waitFor();
    expect(await h.page.locator('[data-testid=status]').innerText()).toMatch(/warming up engine…|pretraining/);
    expect(await h.page.locator('section[aria-label="Divergence plot"]').count()).toBe(1);
    // Space while the engine warms up is said and kept: the run plays once the engine is ready
    await h.page.keyboard.press(' ');
    expect(await h.page.locator('[data-testid=status]').innerText()).toMatch(/Play pressed: the run starts as soon as the engine is ready \(space again to cancel\)/);
    await h.page.waitForFunction(() => /playing · step/.test(document.querySelector('[data-testid=status]')?.textContent ?? ''), null, { timeout: 120_000 });
    // (back to step 0 for the tests below: pause, then Reset with the same seed)
    await h.page.keyboard.press(' ');
    await h.page.waitForFunction(() => /paused at step/.test(document.querySelector('[data-testid=status]')?.textContent ?? ''), null, { timeout: 60_000 });
    await h.page.keyboard.press('r');
    await h.page.waitForFunction(() => document.querySelector('[data-testid=step] b')?.textContent === '0', null, { timeout: 60_000 });
    await ready(h.page);
    const badge = await h.page.locator('[data-testid=backend]').innerText();
    expect(badge).toMatch(/^WASM/);
    expect(badge).toMatch(/fell back to WASM/);
    expect(badge).toMatch(/pretrained in the worker \(20 SFT steps/);
    // WASM runs on onnxruntime-web's plain build: the WebGPU build's Asyncify WebAssembly is never fetched
    expect(await labWorkerWasm(h.page)).toEqual(['ort-wasm-simd-threaded.wasm']);
    expect(await h.page.evaluate(() => document.documentElement.scrollWidth > innerWidth)).toBe(false);
    // Every control has an accessible name (label, aria-label/-labelledby or text).
    const unnamed = await h.page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('input, select, button, [role=slider]')]
        .filter((el) => {
          const labelled = (el as HTMLInputElement).labels?.length || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby');
          return !labelled && !el.textContent?.trim();
        })
        .map((el) => el.outerHTML.slice(0, 120)),
    );
    expect(unnamed).toEqual([]);
  });

  it('trains: → steps once, play advances the counter, the plot gets points, metrics change', async () => {
    await h.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await h.page.keyboard.press('ArrowRight');
    expect(await waitStep(h.page, 1)).toBe(1);
    await ready(h.page);
    await h.page.keyboard.press(' ');
    await waitStep(h.page, 6);
    // The plot is redrawn paced while playing (redraw-pacer.ts), so it may trail the step counter.
    await h.page.waitForFunction(
      () => Math.max(0, ...[...document.querySelectorAll('section[aria-label="Divergence plot"] svg path[data-line]')].map((p) => (p.getAttribute('d')?.match(/[LMH]/g) ?? []).length)) >= 5,
      null,
      { timeout: 60_000 },
    );
    expect(await headlinePoints(h.page)).toBeGreaterThanOrEqual(5);
    expect(await h.page.locator('[data-testid=backend]').innerText()).toMatch(/steps\/s/);
  });

  it('a change of ε_high mid-run reaches the worker: timeline, next frame, URL', async () => {
    await setNumber(h.page, 'clipHigh', 0.35);
    const timeline = h.page.locator('[data-testid=timeline]');
    await timeline.getByText('ε_high 0.28 → 0.35').waitFor({ timeout: 30_000 });
    const at = Number(/after step (\d+)\s+ε_high 0\.28 → 0\.35/.exec(await timeline.innerText())?.[1]);
    expect(at).toBeGreaterThanOrEqual(6);
    await waitStep(h.page, at + 2);
    await h.page.getByRole('button', { name: 'Pause' }).click();
    await ready(h.page);
    const e = await exportJson<Exported>(h.page);
    expect(e.config.clipHigh).toBe(0.35);
    const changed = e.frames.filter((f) => 'clipHigh' in f.changes);
    expect(changed.map((f) => [f.step, f.changes.clipHigh])).toEqual([[at + 1, 0.35]]);
    expect(e.timeline.at(-1)).toEqual({ step: at, patch: { clipHigh: 0.35 } });
    const entropy = new Set(e.frames.map((f) => f.scalars['support/token_entropy']));
    expect(entropy.size).toBeGreaterThan(1);
    expect(e.frames.map((f) => f.step)).toEqual(e.frames.map((_, i) => i + 1));
    expect(h.page.url()).toContain('clipHigh=0.35');
  });

  it('fork: both runs continue from step t in identical state (paired), B with its own settings', async () => {
    const t = await stepCount(h.page);
    await h.page.getByRole('button', { name: 'Fork' }).click();
    await h.page.locator('[data-testid=backend-B]').waitFor();
    await ready(h.page);
    for (const id of ['timeline-A', 'timeline-B']) {
      expect(await h.page.getByTestId(id).innerText()).toContain(`step ${t} continues from the fork point`);
    }
    await stepN(h.page, 1);
    const a1 = await exportJson<Exported>(h.page);
    const b1 = await exportJson<Exported>(h.page, 'Export metrics of run B');
    expect(a1.frames.map((f) => f.step)).toEqual(Array.from({ length: t + 1 }, (_, i) => i + 1));
    expect(b1.frames.map((f) => f.step)).toEqual([t + 1]);
    expect(b1.frames[0].scalars).toEqual(a1.frames.at(-1)!.scalars);

    await setNumber(h.page, 'lr', 0.05); // edits run B (the controls target B after a fork)
    await stepN(h.page, 2);
    await h.page.getByTestId('timeline-B').getByText('learning rate 0.001 → 0.05').waitFor();
    const legend = await h.page.locator('section[aria-label="Divergence plot"]').innerText();
    expect(legend).toContain('run B (fork)');
    const dashed = await h.page.locator('section[aria-label="Divergence plot"] svg path[stroke-dasharray]').count();
    expect(dashed).toBeGreaterThan(0);
    const a = await exportJson<Exported>(h.page);
    const b = await exportJson<Exported>(h.page, 'Export metrics of run B');
    expect(a.frames.at(-1)!.step).toBe(t + 3);
    expect(a.config.lr).toBe(0.001);
    expect(b.frames.map((f) => f.step)).toEqual([t + 1, t + 2, t + 3]);
    expect(b.config.lr).toBe(0.05);
    expect(b.config.clipHigh).toBe(0.35);
    // the changed setting reached B only: from t + 2 on the runs differ
    expect(b.frames[2].scalars['train/loss']).not.toBe(a.frames.at(-1)!.scalars['train/loss']);
    expect(b.config.seed).toBe(a.config.seed);
    mkdirSync(ARTIFACTS, { recursive: true });
    await h.page.screenshot({ path: `${ARTIFACTS}lab.png` });
    expect(h.errors).toEqual([]);
    expect(h.httpErrors).toEqual([]);
  });
});

describe('lessons and URLs', () => {
  let h: OpenedPage;
  beforeAll(async () => {
    h = await openPage('nogpu', `/?v=1&lesson=g-stale-weights-503&seed=3&${TINY}`);
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(({ onTestFailed }) => onTestFailed(() => report(h)));

  it('a lesson URL reproduces the metrics of the same run set up by hand', async () => {
    await ready(h.page);
    expect(await h.page.getByTestId('lesson-text').innerText()).toMatch(/weight-sync pause/);
    await stepN(h.page, 3);
    const fromUrl = await exportJson<Exported>(h.page);

    await h.page.goto(`${h.server.url}/?v=1&${TINY}`);
    await ready(h.page);
    await setNumber(h.page, 'seed', 3);
    await ready(h.page);
    await setNumber(h.page, 'steps', 80);
    await setNumber(h.page, 'updatesPerRollout', 4);
    await h.page.locator('#cfg-piOldSource').selectOption('rollout');
    await setNumber(h.page, 'staleness', 1);
    await setNumber(h.page, 'pauseWindow', 0.2);
    await setNumber(h.page, 'requestRate', 8);
    await stepN(h.page, 3);
    const byHand = await exportJson<Exported>(h.page);

    expect(byHand.config).toEqual(fromUrl.config);
    expect(byHand.frames.length).toBe(3);
    expect(byHand.frames.map((f) => f.scalars)).toEqual(fromUrl.frames.map((f) => f.scalars));
    expect(fromUrl.frames[2].scalars['gap/requests_503']).toBeTypeOf('number');
    expect(h.errors).toEqual([]);
  });

  it('an invalid URL value shows a message, falls back for that field only, and the lab runs', async () => {
    await h.page.goto(`${h.server.url}/?v=1&clipHigh=banana&seed=5&${TINY}`);
    const banner = h.page.getByTestId('url-errors');
    await banner.waitFor();
    expect(await banner.innerText()).toContain('clipHigh: expected a decimal number, got "banana"');
    await ready(h.page);
    expect(await h.page.locator('#cfg-clipHigh').inputValue()).toBe('0.28');
    expect(await h.page.locator('#cfg-seed').inputValue()).toBe('5');
    await stepN(h.page, 1);
    expect(h.errors).toEqual([]);
  });
  it('the default model starts from the shipped base checkpoint', async () => {
    await h.page.goto(`${h.server.url}/?v=1&lesson=a-support-collapse`);
    await ready(h.page);
    expect(await h.page.getByTestId('backend').innerText()).toContain('base: shipped checkpoint checkpoints/strategies.f32');
    await stepN(h.page, 1);
    expect(h.errors).toEqual([]);
    expect(h.httpErrors).toEqual([]);
  });
});

describe('presenter mode', () => {
  let h: OpenedPage;
  beforeAll(async () => {
    h = await openPage('nogpu', `/?v=1&lesson=b-clip-higher&present=1&hide=clipHigh,updatesPerRollout&pauseAt=2&${TINY}`);
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(({ onTestFailed }) => onTestFailed(() => report(h)));

  it('hides the chosen controls and pauses at the checkpoint step', async () => {
    await ready(h.page);
    expect(await h.page.locator('#cfg-clipHigh').count()).toBe(0);
    expect(await h.page.locator('#cfg-clipLow').count()).toBe(1);
    expect(await h.page.getByText('hidden: predict, then run').count()).toBe(2);
    await h.page.getByRole('button', { name: 'Play' }).click();
    await h.page.getByTestId('status').getByText('checkpoint at step 2').waitFor({ timeout: 30_000 });
    await ready(h.page);
    expect(await stepCount(h.page)).toBe(2);
    await h.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await h.page.keyboard.press('r');
    await h.page.waitForFunction(() => document.querySelector('[data-testid=step] b')?.textContent === '0');
    expect(await h.page.locator('.statusrow').innerText()).toMatch(/then Play \(space\)/); // the lesson's watch line says it
    expect(h.errors).toEqual([]);
  });
});

describe('lab on SwiftShader WebGPU', () => {
  let h: OpenedPage;
  beforeAll(async () => {
    // WebGPU asked for: "auto" measures and ends on WASM here (tests/e2e/backend-choice.test.ts)
    h = await openPage('webgpu', '/?v=1&dModel=16&layers=1&heads=2&mlp=32&rolloutBatch=4&behaviorSamples=4&pretrain=2&backend=webgpu');
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(({ onTestFailed }) => onTestFailed(() => report(h)));

  it('reports its WebGPU adapter when asked for, takes a step, and switches to WASM on request', async () => {
    await ready(h.page, 120_000);
    const badge = await h.page.locator('[data-testid=backend]').innerText();
    expect(badge).toMatch(/^WebGPU/);
    expect(badge).toMatch(/swiftshader/i);
    await stepN(h.page, 1);
    expect(await headlinePoints(h.page)).toBeGreaterThanOrEqual(1);
    expect(await labWorkerWasm(h.page)).toEqual(['ort-wasm-simd-threaded.asyncify.wasm']);
    // switching the engine to WASM starts a new worker on WASM and says why
    await h.page.getByLabel('engine').selectOption('wasm');
    // the badge's own text (its reason line and screen-reader copy say "WASM" too)
    await h.page.waitForFunction(() => /^WASM/.test(document.querySelector('[data-testid=backend]')?.textContent?.trim() ?? ''), undefined, { timeout: 60_000 });
    await ready(h.page);
    expect(await h.page.locator('[data-testid=backend]').innerText()).toMatch(/WASM chosen in the settings/);
    expect(h.page.url()).toContain('backend=wasm');
    await stepN(h.page, 1);
    expect(await labWorkerWasm(h.page)).toEqual(['ort-wasm-simd-threaded.wasm']); // the new worker
    expect(h.errors).toEqual([]);
  });
});
