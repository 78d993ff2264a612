// npm run export-gate: a gate file or a built-in gate's name to a Python module that decides as the
// lab (run here under python3), with a trainer's adapter appended; a gate reading a field the trainer
// cannot provide is refused naming the field and why (exit 1); a bad command line is exit 2.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scaled } from '../../tests/support/speed';
import { ADAPTERS } from '../core/gates/export/adapters/index';
import { SAMPLE_FIELDS } from '../core/gates';
import { runInProcess } from '../../tests/support/cli-in-process';
import { EXIT_ERROR } from './exit-codes';
import { exportGateMain } from './export-gate-main';

const ROOT = join(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'invlab-export-gate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `npm run export-gate` as a process: one of each exit code (0, 1, 2) runs so. */
const cli = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/export-gate.ts'), ...args], { cwd: ROOT, encoding: 'utf8', timeout: scaled(60_000) });

/** `npm run export-gate` in process (exportGateMain, what the command runs: a process costs about 0.7 s of CPU more). */
async function inProcess(...args: string[]): Promise<{ status: number; stderr: string }> {
  const r = await runInProcess(async (argv) => exportGateMain(argv), args, () => EXIT_ERROR);
  return { status: r.code, stderr: r.stderr };
}

describe('npm run export-gate', () => {
  it('writes a gate file as a Python module that decides as the lab; a built-in gate by name', async () => {
    const gate = join(dir, 'gate.txt');
    writeFileSync(gate, 'votes_pos > 0 && votes_neg > 0 => drop # votes disagree\nreward % 2 == -1 => mask1 0.5*rl\ntrue => mask0\n');
    const out = join(dir, 'gate.py');
    const r = cli(gate, '--to', 'python', '--out', out);
    expect(r.status, r.stderr).toBe(0);
    const src = readFileSync(out, 'utf8');
    expect(src).toContain('GATE_TEXT = "votes_pos > 0 && votes_neg > 0 => drop # votes disagree\\nreward % 2 == -1 => mask1 0.5*rl\\ntrue => mask0"');
    expect(src).toMatch(/LAB_VERSION = "invariant-lab@\d+\.\d+\.\d+\+/);
    // -3 % 2 is -1 in the lab (Python's % would say 1): rule 2 decides, reward 0.5 * -3
    const input = JSON.stringify([{ votes_pos: 0, votes_neg: 1, reward: -3, hint_len: 0 }, { votes_pos: 2, votes_neg: 1, reward: 1 }]);
    const lines = execFileSync('python3', [out], { input, encoding: 'utf8' }).trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toEqual([
      { rule: 1, queued: true, loss_mask: 1, reward: -1.5, opd_weight: 0, uses_hint: false },
      { rule: 0, queued: false, loss_mask: 0, reward: 0, opd_weight: 0, uses_hint: false },
    ]);
    const b = await inProcess('dr-grpo', '--to', 'python', '--out', join(dir, 'dr.py'));
    expect(b.status, b.stderr).toBe(0);
    expect(readFileSync(join(dir, 'dr.py'), 'utf8')).toContain('"then": "mask1 rl_centered"');
  }, scaled(120_000));

  it('appends the trainer\'s adapter, and refuses a gate reading a field the trainer cannot provide', async () => {
    const [target, adapter] = Object.entries(ADAPTERS).find(([, a]) => a && Object.keys(a.unavailable).length > 0)!;
    const field = Object.keys(adapter!.unavailable)[0];
    writeFileSync(join(dir, 'plain.txt'), 'true => mask1 rl\n');
    const ok = await inProcess(join(dir, 'plain.txt'), '--to', target, '--out', join(dir, 'ok.py'));
    expect(ok.status, ok.stderr).toBe(0);
    const written = readFileSync(join(dir, 'ok.py'), 'utf8');
    expect(written.indexOf(adapter!.python.trim())).toBeGreaterThan(written.indexOf('def decide('));
    const gate = join(dir, 'reads.txt');
    const t = SAMPLE_FIELDS[field as keyof typeof SAMPLE_FIELDS].type;
    writeFileSync(gate, `${t === 'boolean' ? field : t === 'string' ? `${field} == "x"` : t === 'number' ? `${field} > 0` : `len(${field}) > 0`} => drop\ntrue => mask1 rl\n`);
    const r = cli(gate, '--to', target, '--out', join(dir, 'refused.py'));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`it reads "${field}", which ${target} cannot provide: ${adapter!.unavailable[field as keyof typeof adapter.unavailable]}`);
    expect(existsSync(join(dir, 'refused.py'))).toBe(false);
  }, scaled(120_000));

  it('a bad command line is exit 2; an unknown gate or a bad rule exit 1, naming it', async () => {
    expect((await inProcess('grpo', '--to', 'torch', '--out', join(dir, 'x.py'))).stderr).toContain('--to torch: expected one of python, slime, openclaw, openclaw-opd, verl, trl');
    expect(cli('grpo', '--to', 'python').status).toBe(2);
    const r = await inProcess('nope', '--to', 'python', '--out', join(dir, 'x.py'));
    expect([r.status, r.stderr.trim()]).toEqual([1, 'nope: no such gate file, and not a built-in gate (binary-rl, binary-rl-whole-session, opd, combine, grpo, dr-grpo)']);
    writeFileSync(join(dir, 'bad.txt'), 'true => drop\nrewrd > 0 => mask0\n');
    const bad = await inProcess(join(dir, 'bad.txt'), '--to', 'python', '--out', join(dir, 'x.py'));
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('rule 2, character 1: unknown field "rewrd"; did you mean "reward"?');
  }, scaled(120_000));
});
