/**
 * The page `npm run watch --port` serves, in real Chromium: the watch follows a folder into which
 * the test writes the shipped verl example run (the a-support-collapse lesson: exploration
 * collapses, token entropy holds) step file by step file, one step rewritten; the page, opened after
 * the first steps were written, shows them at once, then each new step as it completes; reloaded
 * midway it shows the whole run again with nothing counted twice; a task is fitted from the steps so
 * far; when the watch is stopped
 * (Ctrl-C) it shows the last step, the alarm banner (entropy-gap at step 19, state explain) and the
 * markers, and its frames equal the one-shot import of the same files. No test hook: the page is the
 * built lab (dist-e2e/) served by the watch itself.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, type LaunchedBrowser } from '../../src/cli/browser/chromium';
import { DIST } from '../browser/harness';
import { importExample } from '../support/example-import';
import { ARTIFACTS } from './lab-page';
import { cspViolations, recordCspViolations } from './csp-violations';

const ROOT = new URL('../../', import.meta.url).pathname;
const EX = join(ROOT, 'public/examples');
const STEPS = 20;

const liveSteps = async (page: Page) => Number(await page.locator('[data-testid=live-steps]').innerText());
const waitSteps = (page: Page, n: number) => page.waitForFunction((n) => Number(document.querySelector('[data-testid=live-steps]')?.textContent) >= n, n, { timeout: 60_000 });
const status = (page: Page) => page.locator('[data-testid=live-status]').innerText();

describe('npm run watch --port: the served page', () => {
  let dir: string;
  let watch: ChildProcess;
  let stderr = '';
  let stdout = '';
  let b: LaunchedBrowser;
  let url = '';
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'invlab-served-'));
    const rules = ['--states', join(EX, 'states.json'), '--behaviors', join(EX, 'behaviors-regex.json')];
    watch = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/watch.ts'), '--format', 'verl', dir, ...rules, '--out', join(dir, '..', `${dir.split('/').pop()}.jsonl`), '--port', '0', '--site', DIST], { cwd: ROOT });
    watch.stdout!.on('data', (c) => (stdout += c));
    watch.stderr!.on('data', (c) => (stderr += c));
    const t0 = Date.now();
    while (!(url = /serving the live run at (http:\/\/127\.0\.0\.1:\d+)\//.exec(stderr)?.[1] ?? '') && Date.now() - t0 < 60_000) await new Promise((r) => setTimeout(r, 100));
    if (!url) throw new Error(`watch did not serve: ${stderr}`);
    b = await launchChromium('nogpu');
    await recordCspViolations(b.context);
  }, 120_000);
  afterAll(async () => {
    await b?.close();
    if (watch && watch.exitCode === null) watch.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  const write = (n: number) => copyFileSync(join(EX, 'verl', `${n}.jsonl`), join(dir, `${n}.jsonl`));

  it('shows the steps so far on opening, each new one as it completes, the whole run again after a reload, and the alarm', async () => {
    for (let n = 1; n <= 5; n++) write(n);
    // steps 1–4 are complete (verl writes n + 1 after closing n): wait until the watch has said so
    const t0 = Date.now();
    while (!/^step 4:/m.test(stdout) && Date.now() - t0 < 60_000) await new Promise((r) => setTimeout(r, 100));
    expect(stdout, stderr).toMatch(/^step 4:/m);
    const page = b.page;
    // the address the watch prints, as it prints it (a bare URL: no lesson is opened on it)
    const res = await page.goto(`${url}/`, { waitUntil: 'load' });
    expect(res?.headers()['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    // opened late: the import view is open on the watch's run with the steps already followed
    await page.waitForSelector('[data-testid=live-status]', { timeout: 60_000 });
    await waitSteps(page, 4);
    expect(await status(page)).toMatch(/folder .*invlab-served-\w+, followed by npm run watch · following · [45] steps/);
    expect(await page.locator('[data-testid=follow-served]').innerText()).toMatch(/Followed by npm run watch .* stop it there \(Ctrl-C\)/);
    expect(await page.locator('[data-testid=follow-start]').count()).toBe(0);
    // opened at the top (the page itself never scrolls: its top bar stays), the followed run in view
    // in the views' column, and no lesson's text above it telling the user to press Play
    expect(await page.evaluate(() => [document.scrollingElement!.scrollTop, document.scrollingElement!.scrollHeight <= innerHeight, document.querySelector('header')!.getBoundingClientRect().top])).toEqual([0, true, 0]);
    const run = (await page.getByTestId('live-run').boundingBox())!;
    expect(run.y).toBeGreaterThanOrEqual(0);
    expect(run.y).toBeLessThan(800);
    expect(await page.locator('[data-testid=watch]').count()).toBe(0);
    expect(await page.getByTestId('status').innerText()).not.toMatch(/Press Play|Token entropy stays high/);

    const latency: number[] = [];
    for (let n = 6; n <= STEPS; n++) {
      const t0 = performance.now();
      write(n);
      await waitSteps(page, n - 1); // step n − 1 arrives once step n's file is there
      if (n !== 13) latency.push(performance.now() - t0); // (not the step after the reload)
      expect(await liveSteps(page)).toBeLessThanOrEqual(n);
      if (n === 9) {
        // a resumed trainer rewrites step 5's file: its frame is replaced, not counted twice
        write(5);
        await page.waitForFunction(() => /1 rewritten \(replaced\)/.test(document.querySelector('[data-testid=live-status]')?.textContent ?? ''), null, { timeout: 60_000 });
      }
      if (n === 15) {
        // "Make a task from this run" fits from the steps streamed so far
        await page.getByTestId('fit-make').click();
        const summary = await page.getByTestId('fit-summary').innerText();
        expect(summary).toMatch(/3 states \(code, explain, math\), 4 behaviors \(decompose, direct, search-first, verify\)/);
        expect(Number(/fitted from the (\d+) steps followed so far/.exec(summary)?.[1])).toBeGreaterThanOrEqual(14);
      }
      if (n === 12) {
        // reloaded: the whole run again, nothing doubled
        await page.screenshot({ path: `${ARTIFACTS}watch-served-live.png`, fullPage: true });
        await page.reload({ waitUntil: 'load' });
        await page.waitForSelector('[data-testid=live-status]', { timeout: 60_000 });
        await waitSteps(page, 11);
        expect(await liveSteps(page)).toBeLessThanOrEqual(12);
        expect(await status(page)).toMatch(/ · 1 rewritten \(replaced\)$/);
      }
    }
    await waitSteps(page, STEPS - 1);
    latency.sort((x, y) => x - y);
    console.log(`[watch-served] step file written → its step shown in the page: median ${latency[latency.length >> 1].toFixed(0)} ms, max ${latency.at(-1)!.toFixed(0)} ms over ${latency.length} steps`);
    // Ctrl-C: the watch writes the last step, the page gets the end
    watch.kill('SIGINT');
    await page.waitForFunction(() => /stopped \(the steps still open were written\)/.test(document.querySelector('[data-testid=live-status]')?.textContent ?? ''), null, { timeout: 60_000 });
    expect(await liveSteps(page)).toBe(STEPS);
    const code = await new Promise((r) => (watch.exitCode !== null ? r(watch.exitCode) : watch.on('exit', r)));
    expect(code, stderr).toBe(0);
    expect(stdout.match(/^step \d+/gm)).toHaveLength(STEPS + 1); // 20 steps and step 5 once more (replaced)

    // the alarm: the banner, and markers on the plots
    const banner = await page.locator('[data-testid=live-alarm]').innerText();
    expect(banner).toMatch(/ALARM · step 19 · entropy-gap · state explain/);
    expect(banner).toMatch(/Behavior entropy has halved while token entropy holds/);
    expect(await page.locator('[data-testid=imported-run] [data-alarm=entropy-gap]').count()).toBeGreaterThan(0);
    expect(stdout).toMatch(/^ALARM step 19 entropy-gap/m);
    // the plots switched to the alarm's state; another pick is the user's, and the banner offers the alarm's back
    const picker = page.locator('[data-testid=imported-run] section.divergence select');
    expect(await picker.inputValue()).toBe('explain');
    expect(await page.getByTestId('alarm-state').innerText()).toBe('The plots below show state explain.');
    await picker.selectOption('mean');
    expect(await page.getByTestId('alarm-state').innerText()).toBe('Show state explain on the plots');
    await page.getByTestId('alarm-state').click();
    expect(await picker.inputValue()).toBe('explain');

    // the invariant cards: metrics in words (the name in the tooltip); ③ and ④ say what the log lacks,
    // and ③ shows none of the lab's own settings as the log's
    const cards = page.locator('[data-testid=imported-run] section[aria-label="The four invariants"]');
    const zeroStd = cards.locator('.legend .key[data-metric="grad/zero_std_frac"]');
    expect(await zeroStd.innerText()).toBe('groups with no reward variance (no gradient)');
    expect(await zeroStd.getAttribute('title')).toBe('metric: grad/zero_std_frac');
    expect((await cards.locator('.legend').allInnerTexts()).join(' ')).not.toMatch(/[a-z]+\/[a-z_]+/);
    const missing = await cards.getByTestId('chart-empty').allInnerTexts();
    expect(missing).toHaveLength(2);
    expect(missing[0]).toMatch(/^Not in this log: clip fractions/);
    expect(missing[1]).toMatch(/^Not in this log: it records no gate decisions/);
    expect(await cards.textContent()).not.toMatch(/no data yet|Ratio clip \[|staleness \d/);
    await page.locator('[data-testid=live-run]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${ARTIFACTS}watch-served-done.png`, fullPage: true });

    // the page's frames are the one-shot import's, exactly (measured by the watch in Node)
    const [dl] = await Promise.all([page.waitForEvent('download'), page.getByRole('group', { name: 'Export metrics of run imported' }).getByRole('button', { name: 'JSON' }).click()]);
    const got = JSON.parse(readFileSync((await dl.path())!, 'utf8')) as { frames: { step: number; scalars: Record<string, number> }[] };
    const want = await importExample('verl');
    expect(got.frames.map((f) => f.step)).toEqual(want.frames.map((f) => f.step));
    got.frames.forEach((f, i) => expect(f.scalars, `step ${f.step}`).toEqual(want.frames[i].scalars));
    expect(await cspViolations(page)).toEqual([]);
    expect(b.httpErrors).toEqual([]);
  }, 300_000);
});
