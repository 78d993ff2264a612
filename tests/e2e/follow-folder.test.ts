/**
 * Following a folder live in the import view, in real Chromium: the folder is the Origin Private
 * File System (navigator.storage.getDirectory()), which the test hands the page as the folder the
 * user picked — the only test hook is `window.showDirectoryPicker` replaced in the page before the
 * click, the product code is unchanged. The test writes the shipped verl example run (the lab's
 * a-support-collapse lesson: exploration collapses, token entropy holds) step file by step file into
 * the folder — two files cut mid-line and completed later, one step rewritten — and checks that the
 * steps arrive one by one, that the step axis does not rescale every step, that the alarm shows as a
 * banner and as markers on the plots, and that after Stop the frames equal the one-shot import of
 * the same files (measured in Node).
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, type OpenedPage } from '../browser/harness';
import { importExample } from '../support/example-import';
import { ARTIFACTS, TINY_MODEL } from './lab-page';

const ROOT = new URL('../../', import.meta.url).pathname;
const STEPS = 20;
const stepText = (n: number) => readFileSync(`${ROOT}public/examples/verl/${n}.jsonl`, 'utf8');

/** Write bytes [from, to) of a step file into the OPFS folder (from 0: the file is created anew, as verl's open "w"). */
function writeStep(page: Page, name: string, text: string, from = 0, to?: number): Promise<void> {
  return page.evaluate(
    async ({ name, text, from, to }) => {
      const root = await navigator.storage.getDirectory();
      const dir = await root.getDirectoryHandle('verl-run', { create: true });
      const fh = await dir.getFileHandle(name, { create: true });
      const bytes = new TextEncoder().encode(text);
      const w = await fh.createWritable({ keepExistingData: from > 0 });
      await w.seek(from);
      await w.write(bytes.subarray(from, to ?? bytes.length));
      await w.close();
    },
    { name, text, from, to },
  );
}

const liveSteps = async (page: Page) => Number(await page.locator('[data-testid=live-steps]').innerText());
const waitSteps = (page: Page, n: number) => page.waitForFunction((n) => Number(document.querySelector('[data-testid=live-steps]')?.textContent) >= n, n, { timeout: 60_000 });
/** Steps shown, and the divergence plot's step-axis labels then (read at once). */
const stepsAndTicks = (page: Page) =>
  page.evaluate(() => ({
    steps: Number(document.querySelector('[data-testid=live-steps]')?.textContent),
    ticks: [...document.querySelectorAll('[data-testid=imported-run] .head svg text[data-xtick]')].map((t) => t.textContent).join(' '),
  }));

describe('following a folder live in the import view', () => {
  let h: OpenedPage | undefined;
  beforeAll(async () => {
    h = await openPage('nogpu', `/index.html?backend=wasm&${TINY_MODEL}`);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('follows a verl run written step by step into a folder: steps arrive, the alarm rings, frames equal the one-shot import', async () => {
    const page = h!.page;
    await page.getByText('Import real rollouts').click();
    // the example's rules and format (the same the Node import below uses)
    await page.locator('.ex button', { hasText: /^verl$/ }).click();
    await page.waitForSelector('[data-testid=import-format]', { timeout: 60_000 });
    expect(await page.locator('[data-testid=follow-missing]').count()).toBe(0); // Chromium, a secure context: it can
    // the test's one hook: the folder "picked" is a fresh folder of the Origin Private File System
    await page.evaluate(async () => {
      const root = await navigator.storage.getDirectory();
      await root.removeEntry('verl-run', { recursive: true }).catch(() => undefined);
      const dir = await root.getDirectoryHandle('verl-run', { create: true });
      (window as unknown as { showDirectoryPicker: () => Promise<FileSystemDirectoryHandle> }).showDirectoryPicker = async () => dir;
    });
    await page.locator('[data-testid=follow-start]').click();
    await page.waitForSelector('[data-testid=live-status]');
    expect(await page.locator('[data-testid=live-status]').innerText()).toMatch(/folder verl-run, followed in this browser · following · 0 steps so far/);

    const ticks = new Map<number, string>();
    for (let n = 1; n <= STEPS; n++) {
      const text = stepText(n);
      const cut = Math.floor(new TextEncoder().encode(text).length / 2) + 7;
      if (n === 3 || n === 7) {
        // seen half written (cut mid-line): not read, however long it waits, until it is whole
        await writeStep(page, `${n}.jsonl`, text, 0, cut);
        await waitSteps(page, n - 1);
        await page.waitForTimeout(1500); // past the follower's settle time (500 ms) and a poll (500 ms)
        expect(await liveSteps(page)).toBe(n - 1);
        await writeStep(page, `${n}.jsonl`, text, cut);
      } else await writeStep(page, `${n}.jsonl`, text);
      // verl writes step n + 1 after closing step n: step n − 1 is complete now
      if (n > 1) await waitSteps(page, n - 1);
      expect(await liveSteps(page)).toBeLessThanOrEqual(n);
      const at = await stepsAndTicks(page);
      ticks.set(at.steps, at.ticks);
      if (n === 10) await page.screenshot({ path: `${ARTIFACTS}follow-folder-live.png`, fullPage: true });
      if (n === 9) {
        // a resumed trainer rewrites step 5's file: its frame is replaced, not counted twice
        await writeStep(page, '5.jsonl', stepText(5));
        await page.waitForFunction(() => /1 rewritten \(replaced\)/.test(document.querySelector('[data-testid=live-status]')?.textContent ?? ''), null, { timeout: 60_000 });
        expect(await liveSteps(page)).toBeLessThanOrEqual(9);
      }
    }
    // the step axis grows in steps, not every step: steps 10–19 drawn on one axis (to 20)
    const axes = (lo: number, hi: number) => new Set([...ticks].filter(([s]) => s >= lo && s <= hi).map(([, t]) => t));
    expect([...ticks.keys()].filter((s) => s >= 10 && s <= 19).length).toBeGreaterThanOrEqual(8);
    expect(axes(10, 19).size).toBe(1);
    expect(axes(1, 19).size).toBeLessThanOrEqual(7); // 1, 2, 3, 5, 7.5, 10, 20: the axis's few ends

    // Stop: the follower's finish() writes the last step, as the CLI's Ctrl-C
    await page.locator('[data-testid=follow-stop]').click();
    await page.waitForFunction(() => /stopped \(the steps still open were written\)/.test(document.querySelector('[data-testid=live-status]')?.textContent ?? ''), null, { timeout: 60_000 });
    expect(await liveSteps(page)).toBe(STEPS);

    // the alarm: a banner saying what it means, its step and state, and markers on the plots
    const banner = await page.locator('[data-testid=live-alarm]').innerText();
    expect(banner).toMatch(/ALARM · step 19 · entropy-gap · state explain/);
    expect(banner).toMatch(/Behavior entropy has halved while token entropy holds/);
    expect(await page.locator('[data-testid=imported-run] [data-alarm=entropy-gap]').count()).toBeGreaterThan(0);
    await page.locator('[data-testid=live-run]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${ARTIFACTS}follow-folder-done.png`, fullPage: true });

    // the followed frames equal the one-shot import of the same files
    const [dl] = await Promise.all([page.waitForEvent('download'), page.getByRole('group', { name: 'Export metrics of run imported' }).getByRole('button', { name: 'JSON' }).click()]);
    const got = JSON.parse(readFileSync((await dl.path())!, 'utf8')) as { frames: { step: number; scalars: Record<string, number> }[] };
    const want = await importExample('verl');
    expect(got.frames.map((f) => f.step)).toEqual(want.frames.map((f) => f.step));
    got.frames.forEach((f, i) => {
      // Chromium's and Node's Math.log may differ in the last bit: equal keys, values to 12 digits
      expect(Object.keys(f.scalars).sort()).toEqual(Object.keys(want.frames[i].scalars).sort());
      for (const [k, v] of Object.entries(want.frames[i].scalars)) expect(f.scalars[k], `step ${f.step} ${k}`).toBeCloseTo(v ?? NaN, 12);
    });
  }, 300_000);
});
