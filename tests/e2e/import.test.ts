/**
 * Importing a log through the lab's UI in real Chromium (WASM profile): pick a generic JSONL file
 * with two malformed lines, see the format and the issues, edit the rules with the live preview,
 * measure in the import worker, and get the same frames as the core computes in Node.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, type OpenedPage } from '../browser/harness';
import { measureLogs } from '../../src/core/import/analyze';
import { memorySource } from '../../src/core/import/sources';
import { nodeRegexEngine } from '../../src/io/regex/node';

const ROOT = new URL('../../', import.meta.url).pathname;
const ARTIFACTS = `${ROOT}test-results/`;
const TINY = 'dModel=16&layers=1&heads=2&mlp=32&rolloutBatch=8&behaviorSamples=8&pretrain=20';

describe('import panel', () => {
  let h: OpenedPage | undefined;
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    h = await openPage('nogpu', `/index.html?backend=wasm&${TINY}`);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('imports a file, reports malformed lines, previews the rules and measures it', async () => {
    const page = h!.page;
    const good = readFileSync(`${ROOT}public/examples/generic.jsonl`, 'utf8');
    const text = good + '{"step": 3, "prompt": 7, "response": "x", "reward": 1}\n{"step": 4, "prompt": "p", "resp';
    const file = `${ARTIFACTS}import-e2e.jsonl`;
    writeFileSync(file, text);
    const behaviors = readFileSync(`${ROOT}public/examples/behaviors-regex.json`, 'utf8');

    await page.getByText('Import real rollouts').click();
    await page.locator('[data-testid=import-files]').setInputFiles(file);
    await page.waitForSelector('[data-testid=import-format]', { timeout: 60_000 });
    expect(await page.locator('[data-testid=import-format]').innerText()).toMatch(/generic JSONL: 1280 samples, steps 1–20 \(20\)/);
    const lines = good.trimEnd().split('\n').length;
    await page.locator('[data-testid=import-issues] summary').click();
    const issues = await page.locator('[data-testid=import-issues] li').allInnerTexts();
    expect(issues).toEqual([expect.stringContaining(`import-e2e.jsonl:${lines + 1} field \`prompt\`: expected a string`), expect.stringContaining(`import-e2e.jsonl:${lines + 2} truncated`)]);

    // states default to the log's `state` field; bad rules are named, good rules classify live
    await page.getByLabel('Behavior rules (JSON)').fill('{"rules": [{"label": "x", "responseRegex": "("}], "fallback": "other"}');
    expect(await page.locator('[data-testid=rules-error]').innerText()).toMatch(/rules\[0\].responseRegex: invalid regex/);
    await page.getByLabel('Behavior rules (JSON)').fill(behaviors);
    await page.waitForFunction(() => !document.querySelector('[data-testid=rules-error]'));
    // the preview is classified in the import worker: wait for the new rules' labels
    await page.waitForFunction(() => /Preview of the first 200 samples: .*decompose: \d+/s.test(document.querySelector('[data-testid=preview-summary]')?.textContent ?? ''), null, { timeout: 60_000 });
    const summary = await page.locator('[data-testid=preview-summary]').innerText();
    const unc = await page.locator('tr.unc').count();
    expect(summary).toContain(`Preview of the first 200 samples: ${unc} unclassified`);
    expect(summary).toMatch(/decompose: \d+/);
    await page.locator('[data-testid=import-panel] .body').screenshot({ path: `${ARTIFACTS}import-rules.png` });

    await page.locator('[data-testid=import-measure]').click();
    await page.waitForSelector('[data-testid=imported-run]', { timeout: 60_000 });
    expect(await page.locator('[data-testid=import-summary]').innerText()).toMatch(/^1280 samples in 20 steps · states code, explain, math · behaviors decompose, direct, search-first, verify/);
    expect(await page.locator('[data-testid=token-note]').innerText()).toMatch(/empirical next-token entropy/);
    expect(await page.locator('[data-testid=imported-run] svg').count()).toBeGreaterThan(2);
    await page.locator('[data-testid=imported-run]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${ARTIFACTS}import.png`, fullPage: true });

    // the measured frames equal the core's on the same bytes in Node
    const [dl] = await Promise.all([page.waitForEvent('download'), page.getByRole('group', { name: 'Export metrics of run imported' }).getByRole('button', { name: 'JSON' }).click()]);
    const got = JSON.parse(readFileSync((await dl.path())!, 'utf8')) as { frames: { step: number; scalars: Record<string, number> }[] };
    const want = await measureLogs([memorySource('import-e2e.jsonl', text)], { states: { kind: 'field', field: 'state' }, behaviors: JSON.parse(behaviors), eps: 0.05 }, { regex: nodeRegexEngine() });
    expect(got.frames.map((f) => f.step)).toEqual(want.frames.map((f) => f.step));
    got.frames.forEach((f, i) => {
      // Chromium's and Node's Math.log may differ in the last bit: equal keys, values to 12 digits
      expect(Object.keys(f.scalars).sort()).toEqual(Object.keys(want.frames[i].scalars).sort());
      for (const [k, v] of Object.entries(want.frames[i].scalars)) expect(f.scalars[k], `step ${f.step} ${k}`).toBeCloseTo(v ?? NaN, 12);
    });

    // the gate counterfactual: a preset replayed on every step in the worker
    await page.getByLabel('Gate preset').selectOption('grpo + dynamic sampling (drop zero-variance groups)');
    await page.locator('[data-testid=gate-apply]').click();
    await page.waitForSelector('[data-testid=gate-rules]', { timeout: 60_000 });
    const counts = (await page.locator('[data-testid=gate-rules] tbody tr td:nth-child(4)').allInnerTexts()).map(Number);
    expect(counts.reduce((a, x) => a + x, 0)).toBe(1280);
    await page.locator('[aria-label="Gate counterfactual"]').screenshot({ path: `${ARTIFACTS}import-gate.png` });
    await page.locator('[data-testid=import-panel] .drop').screenshot({ path: `${ARTIFACTS}import-drop.png` });
    expect(h!.errors).toEqual([]);
  });

  it('a rule past the regex budget stops with the rule, the file and the line; the next import runs', async () => {
    const page = h!.page;
    const rows = ['ok', `${'a'.repeat(40)}!`, 'fine'].map((r, i) => JSON.stringify({ step: 1, state: 's', prompt: 'p', response: r, reward: i % 2 }));
    const file = `${ARTIFACTS}import-budget.jsonl`;
    writeFileSync(file, rows.join('\n') + '\n');
    await page.locator('[data-testid=import-files]').setInputFiles(file);
    await page.waitForFunction(() => /1 step|3 samples/.test(document.querySelector('[data-testid=import-format]')?.textContent ?? ''), null, { timeout: 60_000 });
    await page.getByLabel('Behavior rules (JSON)').fill('{"rules": [{"label": "slow", "responseRegex": "^(?=a)(a+)+$"}], "fallback": "other"}');
    await page.waitForSelector('[data-testid=import-error]', { timeout: 60_000 });
    expect(await page.locator('[data-testid=import-error]').innerText()).toMatch(/behaviors\.rules\[0\]\.responseRegex \(slow\): the regex ran past its budget \(2 s of backtracking per file\) on import-budget\.jsonl line 2, so the import stopped/);
    // a fresh worker runs the next rules (a lookahead that does not backtrack badly)
    await page.getByLabel('Behavior rules (JSON)').fill('{"rules": [{"label": "ok", "responseRegex": "^(?=o)ok$"}], "fallback": "other"}');
    await page.locator('[data-testid=import-measure]').click();
    await page.waitForFunction(() => /3 samples in 1 step/.test(document.querySelector('[data-testid=import-summary]')?.textContent ?? ''), null, { timeout: 60_000 });
    expect(await page.locator('[data-testid=import-error]').count()).toBe(0);

    // the reward a user names: a field in no sample is refused by name; a threshold makes votes
    await page.getByLabel('Reward field').fill('nope');
    await page.locator('[data-testid=import-measure]').click();
    await page.waitForSelector('[data-testid=import-error]', { timeout: 60_000 });
    expect(await page.locator('[data-testid=import-error]').innerText()).toMatch(/^reward: no sample has the field nope \(numeric fields of the first sample: step, reward\)/);
    await page.getByLabel('Reward field').fill('reward');
    await page.getByLabel('Reward threshold').fill('0.5');
    await page.locator('[data-testid=import-measure]').click();
    await page.waitForFunction(() => /reward: field reward, as a vote: r ≥ 0\.5 → \+1, r < 0\.5 → −1/.test(document.querySelector('[data-testid=import-summary]')?.textContent ?? ''), null, { timeout: 60_000 });
    await page.getByLabel('Reward threshold').fill('x');
    expect(await page.locator('[data-testid=reward-error]').innerText()).toMatch(/reward threshold: expected τ or τ,τ'/);
    await page.getByLabel('Reward field').fill('');
    await page.getByLabel('Reward threshold').fill('');
    expect(h!.errors).toEqual([]);
  });

  it('loads the TRL parquet and OpenClaw-RL examples (hyparquet and the record+PRM join in the worker)', async () => {
    const page = h!.page;
    const fmt = page.locator('[data-testid=import-format]');
    await page.getByRole('button', { name: 'trl', exact: true }).click();
    await page
      .waitForFunction(() => /TRL GRPO completions \(parquet\): 1280 samples/.test((document.querySelector('[data-testid=import-format]')?.textContent ?? '').replace(/\s+/g, ' ')), null, { timeout: 120_000 })
      .catch(async (e) => {
        console.error('[import e2e]', await fmt.allInnerTexts(), await page.locator('[data-testid=import-error]').allInnerTexts(), await page.locator('.progress').allInnerTexts(), h!.errors);
        throw e;
      });
    // the preview is classified in the worker, after the scan
    await page.waitForFunction(() => /Preview of the first 200 samples: \d+ unclassified/.test(document.querySelector('[data-testid=preview-summary]')?.textContent ?? ''), null, { timeout: 60_000 });
    await page.getByRole('button', { name: 'openclaw', exact: true }).click();
    await page.waitForFunction(() => /OpenClaw-RL record \+ PRM JSONL: 1280 samples, steps 1–20 \(20\), no log-probs, with tool calls · 2 files/.test((document.querySelector('[data-testid=import-format]')?.textContent ?? '').replace(/\s+/g, ' ')), null, { timeout: 120_000 });
    expect(await fmt.innerText()).toContain('OpenClaw-RL');
    expect(await page.locator('[data-testid=import-issues]').count()).toBe(0);
    expect(h!.errors).toEqual([]);
  });
});
