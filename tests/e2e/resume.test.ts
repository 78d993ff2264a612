/**
 * Runs that last, in real Chromium on WASM: a reload in the middle of a run restores it from the
 * browser's IndexedDB — frames at once, then the stored state (weights, optimizer moments, RNG
 * positions) or, when no state was kept, a replay from step 0 — and training continues exactly as an
 * uninterrupted run of the same seed (frames compared bit for bit). The inspector's traces come back,
 * "Start fresh" declines the stored run, and a link with other settings wins, offering the stored run.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { openPage, type OpenedPage } from '../browser/harness';
import { waitUntil } from '../support/poll';
import { storedRun, storedThrough } from './stored';
import { ARTIFACTS, TINY_MODEL, exportJson, ready, setNumber, status, stepCount, stepN, waitStep } from './lab-page';

const TINY = `${TINY_MODEL}&steps=5000&backend=wasm`;

const URL_A = `/?v=1&seed=4&views=inspector&${TINY}`;

interface Exported {
  config: Record<string, unknown>;
  timeline: { step: number; patch: Record<string, unknown> }[];
  frames: { step: number; scalars: Record<string, number>; series: Record<string, number[]> }[];
}

/** Wait until the stored state (the header's "keep state" line) is at `step` or later. */
async function stateStoredAt(page: Page, step: number): Promise<number> {
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid=stored-state]')?.getAttribute('data-step') ?? -1) >= n, step, { timeout: 60_000 });
  return Number(await page.getByTestId('stored-state').getAttribute('data-step'));
}

/** The `resumed` entries of the lab's stored run. */
const storedResumes = async (page: Page) => (await storedRun(page, 'lab-run')).record?.cells[0]?.resumed ?? [];

const deterministic = (e: Exported) => e.frames.map((f) => ({ step: f.step, scalars: f.scalars, series: f.series }));

describe('a reload in the middle of a run (WASM)', () => {
  let h: OpenedPage | undefined;
  let fresh: OpenedPage | undefined;
  afterAll(async () => {
    await h?.close();
    await fresh?.close();
  });
  beforeEach(({ onTestFailed }) => onTestFailed(() => console.error(`[resume e2e] ${h?.page.url()}\n errors: ${h?.errors.join(' | ')}\n console: ${h?.console.slice(-8).join(' | ')}`)));

  let resumed: Exported;
  it('restores the counter, the charts and the timeline, continues from the stored state, and equals an uninterrupted run bit for bit', async () => {
    h = await openPage('nogpu', URL_A);
    const page = h.page;
    await ready(page);
    await stepN(page, 3);
    await setNumber(page, 'clipHigh', 0.35); // a live change: on the timeline at step 3
    await page.locator('.transport .play').click();
    await waitStep(page, 30);
    const kept = await stateStoredAt(page, 25); // kept every 25 steps while playing
    await page.reload(); // mid-run: still playing
    await ready(page);
    const said = await status(page);
    const m = /Restored the run stored in this browser at step (\d+): resumed from the weights, optimizer state and random streams saved at step (\d+)(?:, then replayed steps \d+–\d+ with the same seed and settings)?: it continues exactly as it would have\. Press Play to continue, or Start fresh\./.exec(said);
    expect(m, said).not.toBeNull();
    const [n, from] = [Number(m![1]), Number(m![2])];
    expect(from).toBeGreaterThanOrEqual(kept);
    expect(n).toBeGreaterThanOrEqual(from); // the frames stored before the reload (the counter may have been a step or two ahead)
    if (n > from) expect(said).toContain(`The replayed step ${n} equals the stored one bit for bit.`);
    expect(await stepCount(page)).toBe(n);
    await page.getByTestId('restored').waitFor();
    const before = await exportJson<Exported>(page);
    expect(before.frames.map((f) => f.step)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    expect(before.config.clipHigh).toBe(0.35);
    expect(before.timeline.map((e) => [e.step, e.patch.clipHigh])).toEqual([[0, 0.28], [3, 0.35]]);
    const points = await page.evaluate(() => Math.max(0, ...[...document.querySelectorAll('section[aria-label="Divergence plot"] svg path[data-line]')].map((p) => (p.getAttribute('d')?.match(/[LMH]/g) ?? []).length)));
    expect(points).toBeGreaterThanOrEqual(n);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS}resume-restored.png` });

    await stepN(page, 4);
    resumed = await exportJson<Exported>(page);
    expect(resumed.frames.map((f) => f.step).slice(-5)).toEqual([n, n + 1, n + 2, n + 3, n + 4]);

    // the same seed and settings, never interrupted (a fresh browser profile: nothing stored)
    fresh = await openPage('nogpu', URL_A);
    await ready(fresh.page);
    await stepN(fresh.page, 3);
    await setNumber(fresh.page, 'clipHigh', 0.35);
    await stepN(fresh.page, n + 1);
    const straight = await exportJson<Exported>(fresh.page);
    await fresh.close();
    fresh = undefined;
    expect(straight.frames.length).toBe(n + 4);
    expect(deterministic(resumed)).toEqual(deterministic(straight));
    expect(h.errors).toEqual([]);
  }, 600_000);

  it('a paused run comes back at its step with the inspected samples; without a kept state it replays from step 0', async () => {
    const page = h!.page;
    const at = await stepCount(page);
    await page.getByRole('heading', { name: new RegExp(`^Samples of step ${at} `) }).waitFor();
    const rows = await page.locator('.inspector tbody tr').count();
    expect(rows).toBeGreaterThan(0);
    await stateStoredAt(page, at);
    await page.reload();
    await ready(page);
    expect(await status(page)).toMatch(new RegExp(`^Restored the run stored in this browser at step ${at}: resumed from the weights, optimizer state and random streams saved at step ${at}: it continues`));
    expect(await stepCount(page)).toBe(at);
    await page.getByRole('heading', { name: new RegExp(`^Samples of step ${at} `) }).waitFor();
    expect(await page.locator('.inspector tbody tr').count()).toBe(rows);

    await page.getByLabel(/keep state/).uncheck(); // drops the stored state
    await stepN(page, 2);
    await storedThrough(page, at + 2); // the last batch reaches IndexedDB
    await page.reload();
    await ready(page);
    const said = await status(page);
    expect(said).toContain(`Restored the run stored in this browser at step ${at + 2}: resumed from step 0 (no state was saved), then replayed steps 1–${at + 2} with the same seed and settings: a deterministic restart.`);
    expect(said).toContain(`The replayed step ${at + 2} equals the stored one bit for bit.`);
    expect(await page.getByLabel(/keep state/).isChecked()).toBe(false); // the choice came back with the run
    await stepN(page, 1);
    const again = await exportJson<Exported>(page);
    const expected = deterministic(resumed);
    expect(deterministic(again).slice(0, expected.length)).toEqual(expected);
    // the stored run records its own resumes, as bundles do: the three reloads, each exact
    let resumes: { step: number; exact: boolean; from: string }[] = [];
    await waitUntil(async () => (resumes = await storedResumes(page)).length >= 3, { timeout: 60_000, what: 'three resumes on the stored run' });
    expect(resumes.slice(1)).toEqual([
      { step: at, exact: true, from: `a snapshot at step ${at}` },
      { step: at + 2, exact: true, from: 'a replay from step 0' },
    ]);
    expect(resumes[0]).toMatchObject({ exact: true, from: expect.stringMatching(/^a snapshot at step \d+/) });
    expect(h!.errors).toEqual([]);
  }, 600_000);

  it('Start fresh declines the stored run; a link with other settings wins and offers the stored run', async () => {
    const page = h!.page;
    await page.getByLabel(/keep state/).check();
    const at = await stepCount(page);
    await stateStoredAt(page, at);
    await page.goto(`${h!.server.url}/?v=1&seed=5&${TINY}`);
    await ready(page);
    expect(await stepCount(page)).toBe(0);
    const offer = page.getByTestId('restore-offer');
    expect(await offer.innerText()).toMatch(/has other settings than this link \(seed, clipHigh\)/);
    await page.screenshot({ path: `${ARTIFACTS}resume-offer.png` });
    await offer.getByRole('button', { name: `Resume run from step ${at}` }).click();
    await page.getByTestId('restored').waitFor();
    await ready(page);
    expect(await stepCount(page)).toBe(at);
    expect(await page.locator('#cfg-seed').inputValue()).toBe('4');
    await page.getByRole('button', { name: 'Start fresh' }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid=step] b')?.textContent === '0', null, { timeout: 60_000 });
    await ready(page);
    expect(await page.getByTestId('restored').count()).toBe(0);
    await page.reload();
    await ready(page);
    expect(await stepCount(page)).toBe(0); // declined: a reload does not bring it back
    expect(await page.getByTestId('restored').count()).toBe(0);
    expect(h!.errors).toEqual([]);
  }, 600_000);
});
