/**
 * Every lesson whose watch line asks for an action, followed literally in real Chromium (WASM, tiny
 * model, 3 steps): the line stays on screen while the run plays and after it finishes; "press Fork,
 * change a setting, then Play" gives run B a whole run with that setting before the first step and
 * after run A finished; a run-fixing change starts a new run that trains. A fork mid-run keeps run A's
 * step-0 point (its markers stay "of step 0").
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage, type OpenedPage } from '../browser/harness';
import { TINY_MODEL, exportJson, ready, setNumber, stepN } from './lab-page';

const STEPS = 3;
type Exported = { config: Record<string, unknown>; frames: { step: number }[] };

/**
 * Change a setting as the watch line says: a number in its sidebar field, a checkbox by its label
 * (opening its section), the gate ('') by the Gate editor's "Use the method's built-in gate".
 */
async function setControl(page: Page, key: string, value: number | boolean | string): Promise<void> {
  if (typeof value === 'number') return setNumber(page, key, value);
  if (typeof value === 'string') {
    await page.getByRole('button', { name: 'Gate editor', exact: true }).click();
    await page.getByRole('button', { name: "Use the method's built-in gate" }).click();
    await page.getByRole('button', { name: "Use the method's built-in gate" }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Close the gate editor' }).click();
    return;
  }
  const input = page.locator('label.check', { hasText: key }).locator('input');
  if (!(await input.isVisible())) await page.locator('aside details', { has: input }).locator('summary').click();
  await input.setChecked(value);
}

async function finished(page: Page): Promise<void> {
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid=step] b')?.textContent) === n && !document.querySelector('.transport .play[aria-pressed=true]'), STEPS, { timeout: 120_000 });
  await ready(page);
}

type Change = { key: string; value: number | boolean | string };

/** Lessons whose line says: press Fork, change one or two settings (run B), then Play. */
const FORKS: { id: string; says: RegExp; changes: Change[] }[] = [
  { id: 'b-clip-higher', says: /Press Fork, set ε_high to 0\.2 \(run B\), then Play/, changes: [{ key: 'clipHigh', value: 0.2 }] },
  { id: 'c-clip-never-binds', says: /press Fork, set updates per rollout K to 4 \(run B\) and Play/, changes: [{ key: 'updatesPerRollout', value: 4 }] },
  { id: 'd-at-least-one', says: /Press Fork, untick "at least one" \(run B\), then Play/, changes: [{ key: 'at least one', value: false }] },
  {
    id: 'h-long-horizon-credit',
    says: /Press Fork, set γ to 1 and set prm_step_coef to 0 \(run B\), then Play/,
    changes: [{ key: 'gamma', value: 1 }, { key: 'prmStepCoef', value: 0 }],
  },
  { id: 'l-votes-disagree', says: /Press Fork; in the Gate editor press "Use the method's built-in gate" \(run B\); then Play/, changes: [{ key: 'gate', value: '' }] },
  { id: 'm-drop-stale', says: /Press Fork; in the Gate editor press "Use the method's built-in gate" \(run B\); then Play/, changes: [{ key: 'gate', value: '' }] },
  { id: 'n-dynamic-sampling', says: /Press Fork; in the Gate editor press "Use the method's built-in gate" \(run B\); then Play/, changes: [{ key: 'gate', value: '' }] },
  { id: 'o-fitted-gate', says: /Press Fork; in the Gate editor press "Use the method's built-in gate" \(run B\); then Play/, changes: [{ key: 'gate', value: '' }] },
];

describe('lesson instructions, followed literally (WASM, tiny model)', () => {
  let h: OpenedPage;
  beforeAll(async () => {
    h = await openPage('nogpu', '/?v=1');
    await h.page.setViewportSize({ width: 1280, height: 800 });
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(({ onTestFailed }) => onTestFailed(() => console.error(`[lesson-actions e2e] ${h.page.url()}\n  errors: ${h.errors.join(' | ') || 'none'}\n  console tail: ${h.console.slice(-5).join(' | ')}`)));

  const open = async (id: string) => {
    await h.page.goto(new URL(`/?v=1&lesson=${id}&steps=${STEPS}&${TINY_MODEL}&backend=wasm`, h.page.url()).href);
    await ready(h.page);
  };

  async function forkAndPlay(changes: Change[]): Promise<void> {
    const page = h.page;
    await page.getByRole('button', { name: 'Fork' }).click();
    await page.locator('[data-testid=backend-B]').waitFor();
    await ready(page);
    for (const { key, value } of changes) await setControl(page, key, value);
    await page.locator('.transport .play').click();
    await page.waitForFunction(() => /B: finished/.test(document.querySelector('[data-testid=status]')?.textContent ?? ''), null, { timeout: 120_000 });
    await ready(page);
  }

  for (const { id, says, changes } of FORKS) {
    it(`${id}: after run A finished, Fork + its change + Play trains run B from step 0 with it`, async () => {
      const page = h.page;
      await open(id);
      const watch = await page.getByTestId('watch').innerText();
      expect(watch).toMatch(says);
      await page.locator('.transport .play').click();
      await finished(page);
      expect(await page.getByTestId('watch').innerText()).toBe(watch); // still there once finished
      await forkAndPlay(changes);
      const b = await exportJson<Exported>(page, 'Export metrics of run B');
      for (const { key, value } of changes) expect(b.config[key === 'at least one' ? 'atLeastOne' : key], key).toEqual(value);
      expect(b.frames.map((f) => f.step)).toEqual([1, 2, 3]);
      const a = await exportJson<Exported>(page);
      expect(a.frames.map((f) => f.step)).toEqual([1, 2, 3]);
      expect(await page.getByTestId('watch').innerText()).toBe(watch);
      expect(h.errors).toEqual([]);
    }, 300_000);
  }

  it('b-clip-higher before the first step: Fork + ε_high + Play trains both runs side by side; the line stays while they play', async () => {
    const page = h.page;
    await open('b-clip-higher');
    await page.getByLabel('speed').selectOption('1');
    await page.getByRole('button', { name: 'Fork' }).click();
    await page.locator('[data-testid=backend-B]').waitFor();
    await ready(page);
    await setControl(page, 'clipHigh', 0.2);
    await page.locator('.transport .play').click();
    await page.waitForFunction(() => /playing/.test(document.querySelector('[data-testid=status]')?.textContent ?? ''), null, { timeout: 60_000 });
    expect(await page.getByTestId('watch').isVisible()).toBe(true);
    await finished(page);
    await page.getByLabel('speed').selectOption('0');
    const a = await exportJson<Exported>(page);
    const b = await exportJson<Exported>(page, 'Export metrics of run B');
    expect([a.config.clipHigh, b.config.clipHigh]).toEqual([0.28, 0.2]);
    expect(b.frames.map((f) => f.step)).toEqual([1, 2, 3]);
    expect(a.frames.map((f) => f.step)).toEqual([1, 2, 3]);
  }, 300_000);

  it('a fork mid-run keeps run A its step-0 point and its markers "of step 0"', async () => {
    const page = h.page;
    await open('a-support-collapse');
    const plot = page.locator('section[aria-label="Divergence plot"]');
    expect(await plot.innerText()).toContain('% of step 0');
    await stepN(page, 2);
    await page.getByRole('button', { name: 'Fork' }).click();
    await page.locator('[data-testid=backend-B]').waitFor();
    await ready(page);
    expect(await plot.innerText()).toContain('% of step 0');
    const a = await exportJson<Exported & { start?: unknown }>(page);
    expect(a.start).toBeDefined();
  }, 300_000);

  for (const id of ['i-sft-compresses', 'j-collapse-vs-convergence']) {
    it(`${id}: after the run finished, SFT-on-gold steps 0 starts a new run that trains`, async () => {
      const page = h.page;
      await open(id);
      expect(await page.getByTestId('watch').innerText()).toMatch(/set SFT-on-gold steps to 0 \(a new run starts\) and Play/);
      await page.locator('.transport .play').click();
      await finished(page);
      await setControl(page, 'sftGoldSteps', 0);
      await page.waitForFunction(() => Number(document.querySelector('[data-testid=step] b')?.textContent) === 0, null, { timeout: 60_000 });
      await ready(page);
      await page.locator('.transport .play').click();
      await finished(page);
      const a = await exportJson<Exported>(page);
      expect(a.config.sftGoldSteps).toBe(0);
      expect(a.frames.map((f) => f.step)).toEqual([1, 2, 3]);
    }, 300_000);
  }
});
