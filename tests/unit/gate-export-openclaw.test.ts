// On real-format data: the shipped OpenClaw-RL example (public/examples/openclaw, records + PRM file)
// imported with a gate and --samples-out (npm run import), its samples fed step by step to the gate
// exported by npm run export-gate (their fields, sessions and judging order as the lines give them)
// decide as the lab decided on every line. And the server's at-least-one written as a gate (the
// built-in Binary RL gate, which reads session_effective_before) decides as OpenClaw-RL's server
// does: a transliteration of OpenClawAPIServer._submit_turn_sample (openclaw-rl/openclaw_api_server.py)
// over the same turns in the same submission order gives the same loss masks.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/core/config';
import { builtinGateByName } from '../../src/core/gates/export/targets';
import { scaled } from '../support/speed';

const ROOT = join(import.meta.dirname, '../..');
const EX = join(ROOT, 'public/examples');
const dir = mkdtempSync(join(tmpdir(), 'invlab-export-openclaw-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tsx = (script: string, args: string[]) =>
  execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, script), ...args], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: scaled(120_000) });

/** A gate over the fields an OpenClaw log gives: votes, turns, the judging-order counter, hints. */
const CUSTOM = [
  '!has_next_state => mask0 # no next state',
  'votes_pos > 0 && votes_neg > 0 => drop # votes disagree',
  'reward == 0 && session_effective_before == 0 => mask1 # at-least-one',
  'reward % 2 == -1 && turn > 1 => mask1 0.5*rl + opd # negative, later turn',
  'count(votes, 1) == len(votes) => mask1 2*rl # unanimous',
  'true => mask1 rl # effective',
].join('\n');

// Runs the exported module over a --samples-out file, one step at a time; prints per line the
// decision as the lab writes it, and for the Binary RL gate the server's own loss mask.
const DRIVER = String.raw`
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("gate", sys.argv[1])
gate = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gate)
lines = [json.loads(l) for l in open(sys.argv[2])]
steps = {}
for k, l in enumerate(lines):
    steps.setdefault(l["step"], []).append(k)
out = [None] * len(lines)
server = [None] * len(lines)
for step, ks in steps.items():
    rows = [lines[k] for k in ks]
    judged = sorted(range(len(rows)), key=lambda i: rows[i]["judge_order"])
    ds = gate.decide([r["fields"] for r in rows], [r["session"] for r in rows], judged)
    for i, d in enumerate(ds):
        out[ks[i]] = gate.json_decision(d)
    # OpenClawAPIServer._submit_turn_sample, in submission (judging) order: a turn without a next
    # state or scored 0 is excluded (loss mask 0), unless it has a next state and its session has
    # no effective sample yet (self._session_effective); an included turn counts for its session
    session_effective = {}
    for i in judged:
        f, sid = rows[i]["fields"], rows[i]["session"]
        exclude = (not f["has_next_state"]) or f["reward"] == 0
        if exclude and f["has_next_state"] and session_effective.get(sid, 0) == 0:
            exclude = False
        if not exclude:
            session_effective[sid] = session_effective.get(sid, 0) + 1
        server[ks[i]] = 0 if exclude else 1
print(json.dumps({"decisions": out, "server": server}))
`;

function run(gate: string, name: string) {
  const gateFile = join(dir, `${name}.txt`);
  // a built-in gate by name: the import reads its rules, the export its name
  writeFileSync(gateFile, builtinGateByName(gate, defaultConfig()) ?? gate);
  const samples = join(dir, `${name}.samples.jsonl`);
  tsx('src/cli/import.ts', ['--format', 'openclaw', join(EX, 'openclaw'), '--states', join(EX, 'states.json'), '--behaviors', join(EX, 'behaviors-tools.json'), '--gate', gateFile, '--samples-out', samples]);
  const module = join(dir, `${name}.py`);
  tsx('src/cli/export-gate.ts', [gate === 'binary-rl' ? 'binary-rl' : gateFile, '--to', 'python', '--out', module]);
  writeFileSync(join(dir, 'driver.py'), DRIVER);
  const py = JSON.parse(execFileSync('python3', [join(dir, 'driver.py'), module, samples], { encoding: 'utf8', timeout: scaled(60_000), maxBuffer: 1 << 26 })) as { decisions: unknown[]; server: number[] };
  const lines = readFileSync(samples, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { decision: Record<string, unknown>; fields: Record<string, unknown> });
  return { py, lines };
}

describe('an exported gate on the shipped OpenClaw-RL example, imported with --samples-out', () => {
  it('decides every sample as the lab did (the decision of each line), steps and judging order as the lines give them', () => {
    const { py, lines } = run(CUSTOM, 'custom');
    expect(lines.length).toBe(1280);
    expect(py.decisions).toEqual(lines.map((l) => l.decision));
    // the example reaches every rule but the last-resort ones: the comparison is not vacuous
    const rules = new Set(lines.map((l) => l.decision.rule));
    expect([0, 1, 2, 5].every((r) => rules.has(r))).toBe(true);
  }, scaled(240_000));

  it('the server\'s at-least-one as a gate (built-in Binary RL, reading session_effective_before) decides as _submit_turn_sample', () => {
    const { py, lines } = run('binary-rl', 'binary-rl');
    expect(py.decisions).toEqual(lines.map((l) => l.decision));
    expect(lines.map((l) => l.decision.loss_mask)).toEqual(py.server);
    // promotions happen on this example (rule 1, "at-least-one")
    expect(lines.filter((l) => l.decision.rule === 1).length).toBeGreaterThan(0);
  }, scaled(240_000));
});
