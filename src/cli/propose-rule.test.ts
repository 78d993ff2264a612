// `npm run propose-rule`: from the per-sample lines an import wrote (--samples-out) and the run's
// files, a rule for a discovered behavior, written into a rule file that the import then accepts
// with --behaviors: the behavior is named first (exactly the samples the rule matches), the rest discovered.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeCorpus, verlFiles } from '../../tests/support/discover-corpus';
import { parseBehaviorRuleSet } from '../core/import/index';
import { runInProcess } from '../../tests/support/cli-in-process';
import { importMain } from './import-main';

const ROOT = join(import.meta.dirname, '../..');
/** `npm run import` in process (importMain, what the command runs: a process costs about 1 s of CPU more); propose-rule runs as a process. */
const importCli = async (args: string[]) => {
  const r = await runInProcess(importMain, args, () => 1);
  return { status: r.code, stderr: r.stderr };
};
const cli = (script: string, args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, script), ...args], { cwd: ROOT, encoding: 'utf8' });
const lines = (path: string) => readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { file: string; index: number; behavior: string });

describe('npm run propose-rule', () => {
  it('proposes a rule for the discovered template, writes it beside the rules there, and the import names it first', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'invlab-propose-'));
    const run = join(dir, 'run');
    mkdirSync(run);
    const corpus = makeCorpus({ seed: 41, steps: 6, perStep: 64, templateEnd: 0.5 });
    for (const [name, text] of verlFiles(corpus)) writeFileSync(join(run, name), text);
    const truth = new Map(corpus.map((t) => [`${t.sample.file}:${t.sample.line - 1}`, t.behavior]));
    const samples = join(dir, 'samples.jsonl');
    const first = await importCli(['--format', 'verl', run, '--samples-out', samples]);
    expect(first.status, first.stderr).toBe(0);
    // the discovered behavior holding most of the template's samples
    const tally = new Map<string, number>();
    for (const l of lines(samples)) if (truth.get(`${l.file}:${l.index}`) === 'template') tally.set(l.behavior, (tally.get(l.behavior) ?? 0) + 1);
    const found = [...tally].sort((a, b) => b[1] - a[1])[0][0];
    const own = lines(samples).filter((l) => l.behavior === found).length;

    const rules = join(dir, 'behaviors.json');
    writeFileSync(rules, JSON.stringify({ rules: [{ label: 'search', toolsInclude: ['search'] }] }));
    const bad = cli('src/cli/propose-rule.ts', ['--samples', samples, run, '--behavior', found, '--rules-out', rules]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--name is required/);
    const p = cli('src/cli/propose-rule.ts', ['--samples', samples, run, '--behavior', found, '--name', 'template', '--rules-out', rules]);
    expect(p.status, p.stderr).toBe(0);
    const m = /matches (\d+) of its (\d+) samples and (\d+) of (\d+) others/.exec(p.stdout)!;
    expect(m, p.stdout).not.toBeNull();
    const [k, n, j, o] = m.slice(1).map(Number);
    expect(n).toBe(own);
    expect(o).toBe(corpus.length - own);
    expect(k / n).toBeGreaterThanOrEqual(0.9);
    expect(j / o).toBeLessThanOrEqual(0.02);
    const set = parseBehaviorRuleSet(JSON.parse(readFileSync(rules, 'utf8')));
    expect(set.rules.map((r) => r.label)).toEqual(['search', 'template']);

    // the import takes the file: the template named first, exactly the samples the rule matches
    const samples2 = join(dir, 'samples2.jsonl');
    const second = await importCli(['--format', 'verl', run, '--behaviors', rules, '--samples-out', samples2]);
    expect(second.status, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/behaviors \[search, template, /);
    const re = new RegExp(set.rules[1].responseRegex!.replace(/^\(\?i\)/, ''), 'i');
    const named = corpus.filter((t) => t.sample.response && !/"name": "search"/.test(t.sample.response) && re.test(t.sample.response)).length;
    expect(lines(samples2).filter((l) => l.behavior === 'template').length).toBe(named);
    expect(k + j).toBe(named); // every sample was read back here: its own matched and the others it also matches
    // where its other matches fall, by behavior: as many as it matches of the others
    const elsewhere = /^Its other matches: (.*)$/m.exec(p.stdout);
    expect(!!elsewhere, p.stdout).toBe(j > 0);
    if (elsewhere) expect([...elsewhere[1].matchAll(/(\d+) in /g)].reduce((a, x) => a + Number(x[1]), 0)).toBe(j);

    // the template split over two behaviors (every other sample of it in a second one): the CLI says so, with the precision counted with it
    let n2 = 0;
    const split = lines(samples).map((l) => (truth.get(`${l.file}:${l.index}`) === 'template' ? { ...l, behavior: n2++ % 2 ? 'b-half' : 'a-half' } : l));
    const splitSamples = join(dir, 'split.jsonl');
    writeFileSync(splitSamples, split.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const half = cli('src/cli/propose-rule.ts', ['--samples', splitSamples, run, '--behavior', 'a-half', '--name', 'template', '--rules-out', join(dir, 'half.json')]);
    expect(half.status, half.stderr).toBe(0);
    expect(half.stdout).toMatch(/^Its other matches: \d+ in b-half \(of its \d+ read\)/m);
    expect(half.stdout).toMatch(/^warning: The rule also matches most of b-half .* Counted as one behavior, the rule's precision is (0\.9\d|1\.00); against this behavior alone it is 0\.[0-6]\d/m);
  }, 180_000);
});
