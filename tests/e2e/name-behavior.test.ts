/**
 * From a discovered behavior to a rule, in real Chromium: import the shipped verl example with no
 * rules, open a discovered behavior's samples, name it, see the proposed rule with how many of its
 * samples and of the others it matches, apply it (the import measured again: the named behavior
 * first, the rest discovered), see it in the behavior plot, and take the rule file. Then the same on
 * the page `npm run watch --port` serves for the same run followed with no rules: the watch proposes
 * the rule from the files it follows, and the page offers the rule file.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIST, openPage, type OpenedPage } from '../browser/harness';
import { ARTIFACTS, TINY_MODEL } from './lab-page';
import { scaled } from '../support/speed';

const ROOT = new URL('../../', import.meta.url).pathname;

/** Pick `behavior` in the viewer, name it `name`, propose: the form, "matches k of its n samples and j of o others" as [k, n, j, o] (and where the j fall), the rule's regex. */
async function propose(viewer: Locator, behavior: string, name: string): Promise<{ form: Locator; counts: number[]; regex: string }> {
  await viewer.locator('[data-testid=samples-behavior]').selectOption(behavior);
  const form = viewer.locator('[data-testid=name-behavior]');
  await form.waitFor({ timeout: scaled(30_000) });
  await form.locator('[data-testid=rule-name]').fill(name);
  await form.locator('[data-testid=rule-propose]').click();
  const numbers = form.locator('[data-testid=rule-numbers]');
  await numbers.waitFor({ timeout: scaled(60_000) });
  const m = /^matches (\d+) of its (\d+) samples and (\d+) of (\d+) others/.exec(await numbers.innerText());
  expect(m, await numbers.innerText()).not.toBeNull();
  // where the rule's other matches fall: by behavior, as many as it matches of the others
  const j = Number(m![3]);
  const elsewhere = form.locator('[data-testid=rule-elsewhere]');
  expect(await elsewhere.count()).toBe(j > 0 ? 1 : 0);
  if (j) expect([...(await elsewhere.innerText()).matchAll(/(\d+) in /g)].reduce((a, x) => a + Number(x[1]), 0)).toBe(j);
  // a rule that names only part of its behavior says so in words
  if (Number(m![1]) / Number(m![2]) < 0.8) expect(await form.locator('[data-testid=rule-warnings]').innerText()).toMatch(/The rule misses \d+ of the behavior's \d+ samples read/);
  return { form, counts: m!.slice(1).map(Number), regex: await form.locator('[data-testid=rule-regex]').innerText() };
}

/** The rule file the form offers: its suggested name and its JSON. */
async function downloaded(page: Page, form: Locator): Promise<{ name: string; json: { rules: unknown } }> {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: scaled(30_000) }), form.locator('[data-testid=rule-download]').click()]);
  return { name: download.suggestedFilename(), json: JSON.parse(readFileSync((await download.path())!, 'utf8')) };
}

describe('naming a discovered behavior', () => {
  let h: OpenedPage | undefined;
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    h = await openPage('nogpu', `/index.html?backend=wasm&${TINY_MODEL}`, { viewport: { width: 1280, height: 800 } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('proposes a rule, applies it to the import and offers the rule file', async () => {
    const page = h!.page;
    await page.getByText('Import real rollouts').click();
    const files = Array.from({ length: 20 }, (_, i) => `${ROOT}public/examples/verl/${i + 1}.jsonl`);
    await page.locator('[data-testid=import-files]').setInputFiles(files);
    await page.waitForSelector('[data-testid=import-format]', { timeout: scaled(60_000) });
    await page.locator('[data-testid=import-measure]').click();
    await page.waitForSelector('[data-testid=imported-run]', { timeout: scaled(60_000) });
    // the run's behaviors listed by title, each with its key name
    const discovered = (await page.locator('[data-testid=run-behavior] .label').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.name!))).filter((b) => b !== 'unclassified');
    expect(discovered.length).toBeGreaterThan(0);

    // the samples of the first discovered behavior, and the form that names it
    await page.locator('[data-testid=browse-samples]').click();
    const viewer = page.locator('[data-testid=sample-viewer]');
    await viewer.waitFor({ timeout: scaled(30_000) });
    // every discovered behavior gets an honest proposal (propose() checks where the other matches
    // fall and the warning of a rule that names only part of its behavior); the first one a rule
    // names cleanly — most of its samples, few others — goes on to be applied
    let chosen: { behavior: string; form: Locator; regex: string; k: number } | null = null;
    for (const behavior of discovered) {
      const { form, counts, regex } = await propose(viewer, behavior, 'templated');
      const [k, n, j, o] = counts;
      expect(n).toBeGreaterThan(0);
      expect(regex).toMatch(/^\(\?i\)/);
      if (k / n >= 0.9 && j <= Math.max(1, 0.05 * o)) {
        chosen = { behavior, form, regex, k };
        break;
      }
    }
    expect(chosen, `no discovered behavior of ${discovered.join(', ')} named cleanly by a rule`).not.toBeNull();
    const { behavior, form, regex, k } = chosen!;
    await page.screenshot({ path: `${ARTIFACTS}name-behavior-proposal-1280.png` });

    // the rule file offered for download is the import's rules with the rule in them
    const file = await downloaded(page, form);
    expect(file.name).toBe('behaviors.json');
    expect(file.json.rules).toEqual([{ label: 'templated', responseRegex: regex }]);

    // a name refused: the refusal said, and the last proposal, its rule and its file, gone
    await form.locator('[data-testid=rule-name]').fill('two words');
    await form.locator('[data-testid=rule-propose]').click();
    const refusal = form.locator('[role=alert]');
    await refusal.waitFor({ timeout: scaled(30_000) });
    expect(await refusal.innerText()).toMatch(/"two words" is not usable in metric keys/);
    expect(await form.locator('[data-testid=rule-proposal]').count()).toBe(0);
    expect(await form.locator('[data-testid=rule-download]').count()).toBe(0);
    expect((await propose(viewer, behavior, 'templated')).regex).toBe(regex);

    // applied: measured again, the named behavior first, in the summary, the plot's legend and the viewer
    await form.locator('[data-testid=rule-apply]').click();
    await page.locator('[data-testid=run-behavior] [data-name=templated]').waitFor({ timeout: scaled(60_000) });
    await expect.poll(() => page.locator('[data-testid=imported-run] .legend .key', { hasText: 'templated' }).count(), { timeout: scaled(30_000) }).toBeGreaterThan(0);
    await page.waitForFunction(() => /behavior templated$/.test(document.querySelector('[data-testid=sample-viewer] h3')?.textContent ?? ''), null, { timeout: scaled(30_000) });
    await page.waitForFunction(() => /of \d+/.test(document.querySelector('[data-testid=samples-count]')?.textContent ?? ''), null, { timeout: scaled(30_000) });
    const count = Number(/of (\d+)/.exec(await viewer.locator('[data-testid=samples-count]').innerText())![1]);
    expect(count).toBeGreaterThanOrEqual(k);
    // a named behavior is no longer offered for naming
    expect(await viewer.locator('[data-testid=name-behavior]').count()).toBe(0);
    await page.screenshot({ path: `${ARTIFACTS}name-behavior-1280.png` });
    expect(h!.errors).toEqual([]);
  });

  it('on the page npm run watch serves: the watch proposes the rule from the followed files, the page offers the rule file', async () => {
    const page = h!.page;
    const dir = mkdtempSync(join(tmpdir(), 'invlab-name-served-'));
    cpSync(`${ROOT}public/examples/verl`, join(dir, 'run'), { recursive: true });
    const watch = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/watch.ts'), '--format', 'verl', join(dir, 'run'), '--out', join(dir, 'frames.jsonl'), '--port', '0', '--site', DIST], { cwd: ROOT });
    let stderr = '';
    let stdout = '';
    watch.stderr!.on('data', (c) => (stderr += c));
    watch.stdout!.on('data', (c) => (stdout += c));
    try {
      await expect.poll(() => /serving the live run at (http:\/\/127\.0\.0\.1:\d+)\//.test(stderr) && /^step 19:/m.test(stdout), { timeout: scaled(90_000), interval: 100 }).toBe(true);
      const url = /serving the live run at (http:\/\/127\.0\.0\.1:\d+)\//.exec(stderr)![1];
      await page.goto(`${url}/`, { waitUntil: 'load' });
      await page.waitForSelector('[data-testid=live-status]', { timeout: scaled(60_000) });
      await page.locator('[data-testid=browse-samples]').click();
      const viewer = page.locator('[data-testid=sample-viewer]');
      await viewer.waitFor({ timeout: scaled(30_000) });
      // no rules: every behavior was discovered; wait for the viewer's facets to list one
      const discoveredOption = async () => (await viewer.locator('[data-testid=samples-behavior] option').allInnerTexts()).find((o) => o !== 'any' && o !== 'unclassified');
      await expect.poll(discoveredOption, { timeout: scaled(60_000), interval: 200 }).toBeDefined();
      // the proposal's figures, where its other matches fall and its warnings are checked in propose()
      const { form, regex } = await propose(viewer, (await discoveredOption())!, 'templated');
      // no "Apply" here (the watch measures with the rules it was started with): the rule file, to start it again with
      expect(await form.locator('[data-testid=rule-apply]').count()).toBe(0);
      expect((await downloaded(page, form)).json.rules).toEqual([{ label: 'templated', responseRegex: regex }]);
      await page.screenshot({ path: `${ARTIFACTS}name-behavior-served-1280.png` });
      expect(h!.errors).toEqual([]);
    } finally {
      watch.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});
