/**
 * A reasoning model's run in the page (real Chromium): a generated verl dump whose responses are a
 * `<think>` trace and an answer (tests/support/discover-styles.ts), picked with no rules. The Import
 * panel's preview and the measured run list the discovered behaviors by names a person reads (a
 * quoted opening or shape words, never two content words), each a click from its samples; the rollout
 * viewer shows a sample's think folded apart from its answer. Screenshots at 1280×800
 * (test-results/reasoning-import-1280.png, reasoning-viewer-1280.png: the think folded,
 * reasoning-viewer-think-1280.png: unfolded). The run's charts name them by title as well (the behavior
 * legend, the divergence plot's state picker): reasoning-divergence-1280.png, reasoning-charts-1280.png
 * (behavior distribution and support heatmap), and those in projector mode, reasoning-charts-projector-1280.png.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, type OpenedPage } from '../browser/harness';
import { ARTIFACTS, TINY_MODEL } from './lab-page';
import { scaled } from '../support/speed';
import { makeStyledCorpus } from '../support/discover-styles';
import { unreadableParts } from '../support/readable-names';
import { LEGEND_CHARS, textChars } from '../../src/ui/charts/names';

/** What a legend or picker shows of a title: the whole, or its start cut with "…" (longer than the room only where another title starts the same). */
function shows(text: string, title: string, others: string[]): boolean {
  if (text === title) return true;
  const start = text.slice(0, -1);
  return text.endsWith('…') && title.startsWith(start) && (textChars(text) <= LEGEND_CHARS || others.some((o) => o !== title && o.startsWith(cut1(start))));
}
/** The start one word shorter (what the room alone would have shown). */
const cut1 = (start: string) => start.replace(/\s*\S+$/, '');

/** The names and titles a list shows (LabelName: the key name in data-name, the title in .title). */
function named(list: Locator): Promise<{ name: string; title: string }[]> {
  return list.locator('.label').evaluateAll((els) => els.map((e) => ({ name: (e as HTMLElement).dataset.name!, title: e.querySelector('.title')!.textContent! })));
}

describe('a reasoning run in the page', () => {
  let h: OpenedPage | undefined;
  let dir = '';
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'invlab-reasoning-'));
    h = await openPage('nogpu', `/index.html?backend=wasm&${TINY_MODEL}`, { viewport: { width: 1280, height: 800 } });
  });
  afterAll(async () => {
    await h?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists readable names, and the viewer folds the think apart from the answer', async () => {
    const page = h!.page;
    const corpus = await makeStyledCorpus('reasoning', { seed: 1, steps: 4, perStep: 64 });
    const files = [...corpus.files].map(([name, text]) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    });
    await page.getByText('Import real rollouts').click();
    await page.locator('[data-testid=import-files]').setInputFiles(files);
    await page.waitForSelector('[data-testid=import-format]', { timeout: scaled(60_000) });

    // the preview: its behaviors by title, the key name beside each
    await page.locator('[data-testid=preview-behavior]').first().waitFor({ timeout: scaled(60_000) });
    const previewed = (await named(page.locator('[data-testid=preview-summary]'))).filter((b) => b.name !== 'unclassified');
    expect(previewed.length).toBeGreaterThan(1);
    for (const b of previewed) expect(unreadableParts(b.title), b.name).toEqual([]);

    // the measured run: states and behaviors listed by title
    await page.locator('[data-testid=import-measure]').click();
    await page.waitForSelector('[data-testid=run-names]', { timeout: scaled(60_000) });
    const behaviors = (await named(page.locator('[data-testid=run-names] ul').nth(1))).filter((b) => b.name !== 'unclassified');
    expect(behaviors.length).toBeGreaterThan(1);
    for (const b of behaviors) expect(unreadableParts(b.title), b.name).toEqual([]);
    expect(behaviors.some((b) => b.title.startsWith('"'))).toBe(true);
    const states = await named(page.locator('[data-testid=run-names] ul').first());
    expect(states.length).toBeGreaterThan(1);
    for (const s of states.filter((x) => x.name !== 'other' && x.name !== 'unknown')) expect(s.title, s.name).toMatch(/^"(.+…|… .+[.!?…])"$/);
    await page.locator('[data-testid=import-summary]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${ARTIFACTS}reasoning-import-1280.png` });

    // the run's charts name them by title too: the behavior legend and the state picker (cut to fit, the key on hover)
    const run = page.locator('[data-testid=imported-run]');
    const legend = run.locator('[data-view=behavior] .legend .key');
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=imported-run] [data-view=behavior] .legend .key')].some((k) => k.textContent !== (k as HTMLElement).dataset.series), null, { timeout: scaled(30_000) });
    const keys = await legend.evaluateAll((els) => els.map((e) => ({ name: (e as HTMLElement).dataset.series!, text: e.textContent!, hover: e.getAttribute('title') })));
    const titleOf = new Map(behaviors.map((x) => [x.name, x.title]));
    expect(keys.filter((k) => titleOf.has(k.name)).length).toBe(behaviors.length);
    for (const k of keys.filter((x) => titleOf.has(x.name))) {
      expect(shows(k.text, titleOf.get(k.name)!, [...titleOf.values()]), `${k.name}: ${k.text}`).toBe(true);
      expect(k.hover, k.name).toBe(`${titleOf.get(k.name)} — behavior ${k.name}`);
    }
    expect(new Set(keys.map((k) => k.text)).size, 'legend entries told apart').toBe(keys.length);
    const picker = run.locator('[data-testid=state-picker] option');
    const options = await picker.evaluateAll((els) => els.map((e) => ({ name: (e as HTMLOptionElement).value, text: e.textContent! })));
    const stateTitle = new Map(states.map((x) => [x.name, x.title]));
    expect(options[0].name).toBe('mean');
    // (the picker offers the states of the last step: a state the run no longer visits is not among them)
    expect(options.length).toBeGreaterThan(2);
    for (const o of options.slice(1)) expect(shows(o.text, stateTitle.get(o.name)!, [...stateTitle.values()]), `${o.name}: ${o.text}`).toBe(true);
    expect(options.some((o) => o.text.startsWith('"'))).toBe(true);
    // no legend entry sticks out of its chart
    expect(await legend.evaluateAll((els) => els.filter((e) => e.getBoundingClientRect().right > e.closest('figure')!.getBoundingClientRect().right + 1).map((e) => e.textContent))).toEqual([]);
    await run.locator('[data-testid=state-picker]').evaluate((e) => e.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: `${ARTIFACTS}reasoning-divergence-1280.png` });
    await run.locator('[data-view=behavior]').evaluate((e) => e.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: `${ARTIFACTS}reasoning-charts-1280.png` });
    // …and in projector mode (larger type)
    await page.locator('.projector-toggle').click();
    await run.locator('[data-view=behavior]').evaluate((e) => e.scrollIntoView({ block: 'start' }));
    expect(await legend.evaluateAll((els) => els.filter((e) => e.getBoundingClientRect().right > e.closest('figure')!.getBoundingClientRect().right + 1).map((e) => e.textContent))).toEqual([]);
    await page.screenshot({ path: `${ARTIFACTS}reasoning-charts-projector-1280.png` });
    await page.locator('.projector-toggle').click();

    // one click from a behavior to its samples
    const b = behaviors[0];
    await page.locator(`[data-testid=run-behavior]:has([data-name="${b.name}"])`).click();
    const viewer = page.locator('[data-testid=sample-viewer]');
    await viewer.waitFor({ timeout: scaled(30_000) });
    expect(await viewer.locator('h3').innerText()).toBe(`Samples: behavior ${b.name}`);
    await page.waitForFunction(() => /of \d+/.test(document.querySelector('[data-testid=samples-count]')?.textContent ?? ''), null, { timeout: scaled(30_000) });
    const row = viewer.locator('[data-testid=sample-row]').first();
    expect(await row.locator('.meta .title').nth(1).innerText()).toBe(b.title);
    // the row's line: the think's length, then the answer
    expect(await row.locator('.resp').innerText()).toMatch(/^\[think · \d+ words\] \S/);
    if ((await row.getAttribute('aria-expanded')) !== 'true') await row.click();
    const detail = viewer.locator('[data-testid=sample-detail]');
    await detail.waitFor();

    // the think folded (closed, its length in words) apart from the answer
    const think = detail.locator('[data-testid=sample-think]');
    expect(await think.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    const words = Number(/^reasoning \(think\) · (\d+) words/.exec(await think.locator('summary').innerText())?.[1]);
    expect(words).toBeGreaterThan(20);
    expect(await think.locator('pre').isVisible()).toBe(false);
    const answer = await detail.locator('[data-testid=sample-response]').innerText();
    expect(answer.length).toBeGreaterThan(0);
    expect(answer).not.toMatch(/<\/?think>/);
    await page.screenshot({ path: `${ARTIFACTS}reasoning-viewer-1280.png` });
    await think.locator('summary').click();
    const thought = await think.locator('pre').innerText();
    expect(thought.length).toBeGreaterThan(60);
    expect(answer).not.toContain(thought.slice(0, 60));
    await page.screenshot({ path: `${ARTIFACTS}reasoning-viewer-think-1280.png` });
    expect(h!.errors).toEqual([]);
  });
});
