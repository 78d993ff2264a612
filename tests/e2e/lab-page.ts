/**
 * Driving the lab page from the e2e tests: a tiny model's URL settings, waiting for the page to be
 * ready or for a step, the transport's Step-N, a config field, the run's worker, the metrics export.
 */
import { readFileSync } from 'node:fs';
import type { Page, Worker } from 'playwright-core';

export const ARTIFACTS = new URL('../../test-results/', import.meta.url).pathname;

/** A model small enough that a run (and its in-worker pretraining) takes seconds. */
export const TINY_MODEL = 'dModel=16&layers=1&heads=2&mlp=32&rolloutBatch=8&behaviorSamples=8&pretrain=20';

/** Play is enabled and the status line is not in the middle of something ("…"). */
export async function ready(page: Page, timeout = 120_000): Promise<void> {
  await page.waitForFunction(() => {
    const play = document.querySelector<HTMLButtonElement>('.transport .play');
    return !!play && !play.disabled && !document.querySelector('[data-testid=status]')?.textContent?.includes('…');
  }, null, { timeout });
}

export const stepCount = async (page: Page): Promise<number> => Number(await page.locator('[data-testid=step] b').innerText());
export const status = (page: Page): Promise<string> => page.locator('[data-testid=status]').innerText();

/** Wait until the step counter shows at least `atLeast`; returns it. */
export async function waitStep(page: Page, atLeast: number, timeout = 90_000): Promise<number> {
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid=step] b')?.textContent) >= n, atLeast, { timeout });
  return stepCount(page);
}

/** Take n steps with the transport's Step-N button and wait until the counter shows them. */
export async function stepN(page: Page, n: number): Promise<void> {
  const before = await stepCount(page);
  await page.getByLabel('Steps per Step-N press').fill(String(n));
  await page.getByRole('button', { name: `Step ${n}`, exact: true }).click();
  await waitStep(page, before + n);
  await ready(page);
}

/** Type a number into a sidebar setting (opening its section) and leave the field. */
export async function setNumber(page: Page, key: string, value: number): Promise<void> {
  const input = page.locator(`#cfg-${key}`);
  if (!(await input.isVisible())) await page.locator('aside details', { has: input }).locator('summary').click();
  await input.fill(String(value));
  await input.press('Tab');
}

/** The run's lab worker (the page's other workers: ORT's em-pthread threads, probes). */
export async function labWorker(page: Page): Promise<Worker> {
  for (const w of page.workers()) {
    const name = await w.evaluate(() => self.name).catch(() => '');
    if (name === 'lab-A') return w;
  }
  throw new Error(`no lab worker among ${page.workers().length}`);
}

/**
 * The WebAssembly files the run's lab worker fetched, without their content hashes: the plain WASM
 * build `ort-wasm-simd-threaded.wasm` or the WebGPU build `ort-wasm-simd-threaded.asyncify.wasm`
 * (src/engine/ort-builds.ts).
 */
export async function labWorkerWasm(page: Page): Promise<string[]> {
  const names = await (await labWorker(page)).evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
  return names.filter((n) => n.endsWith('.wasm')).map((n) => n.split('/').pop()!.replace(/-[\w-]{8}\.wasm$/, '.wasm'));
}

/** The metrics JSON export of a run (its buttons' group: 'Export metrics', or run B's). */
export async function exportJson<T = { frames: { step: number }[] }>(page: Page, group = 'Export metrics'): Promise<T> {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByRole('group', { name: group, exact: true }).getByRole('button', { name: 'JSON', exact: true }).click()]);
  return JSON.parse(readFileSync((await dl.path())!, 'utf8')) as T;
}

export const exportSteps = async (page: Page): Promise<number[]> => (await exportJson(page)).frames.map((f) => f.step);
