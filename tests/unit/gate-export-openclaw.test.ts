// On real-format data: the shipped OpenClaw-RL example (public/examples/openclaw, records + PRM file)
// imported with a gate and --samples-out (npm run import), its samples fed step by step to the gate
// exported by npm run export-gate (their fields, sessions and judging order as the lines give them)
// decide as the lab decided on every line. And the server's at-least-one written as a gate (the
// built-in Binary RL gate, which reads session_effective_before) decides as OpenClaw-RL's server
// does: a transliteration of OpenClawAPIServer._submit_turn_sample (openclaw-rl/openclaw_api_server.py)
// over the same turns in the same submission order gives the same loss masks.
// The shipped example has one judged turn per session, every turn with a next state, and its PRM
// file in record order; so each case also runs on a multi-turn variant written from it in the same
// format (below): turns of four records share a session, the last turn has no next state and no
// PRM line, and the PRM lines come in a shuffled (judging) order. There the order matters.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/core/config';
import { builtinGateByName } from '../../src/core/gates/export/targets';
import { exportGateMain } from '../../src/cli/export-gate-main';
import { importMain } from '../../src/cli/import-main';
import { runInProcess } from '../support/cli-in-process';
import { scaled } from '../support/speed';

const ROOT = join(import.meta.dirname, '../..');
const EX = join(ROOT, 'public/examples');
const dir = mkdtempSync(join(tmpdir(), 'invlab-export-openclaw-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A gate over the fields an OpenClaw log gives: next state, votes, the judging-order counter, turns. */
const CUSTOM = [
  '!has_next_state => mask0 # no next state',
  'votes_pos > 0 && votes_neg > 0 => drop # votes disagree',
  'reward == 0 && session_effective_before == 0 => mask1 # at-least-one',
  // queued with loss mask 0: not effective, so a zero-reward turn judged after it is still promoted
  'reward % 2 == -1 && turn >= 1 => mask0 # negative, later turn (the language\'s %: -1 % 2 is -1)',
  'count(votes, 1) == len(votes) => mask1 2*rl # unanimous',
  'true => mask1 rl # effective',
].join('\n');

/**
 * The multi-turn variant of the shipped example, in OpenClaw-RL's two files: each step's records in
 * sessions of four turns (session_id of the first, turn 1..4), the fourth without next_state and
 * without a PRM line (the server judges a turn when its next state arrives); the PRM lines of the
 * judged turns in a seeded shuffle of the whole file (the order judges finish in).
 */
function multiTurnVariant(): string {
  const out = join(dir, 'multi');
  mkdirSync(out, { recursive: true });
  const read = (f: string) => readFileSync(join(EX, 'openclaw', f), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  const prm = new Map(read('openclaw-record_prm.jsonl').map((p) => [`${String(p.session_id)}/${String(p.turn)}`, p]));
  const records: Record<string, unknown>[] = [];
  const judged: Record<string, unknown>[] = [];
  read('openclaw-record.jsonl').forEach((r, k) => {
    const first = k - (k % 4);
    const orig = prm.get(`${String(r.session_id)}/${String(r.turn)}`);
    const rec: Record<string, unknown> = { ...r, session_id: `multi-${first}`, turn: (k % 4) + 1 };
    if (k % 4 === 3) delete rec.next_state;
    else if (orig) judged.push({ ...orig, session_id: rec.session_id, turn: rec.turn });
    records.push(rec);
  });
  let seed = 34;
  for (let i = judged.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const j = seed % (i + 1);
    [judged[i], judged[j]] = [judged[j], judged[i]];
  }
  const jsonl = (xs: unknown[]) => xs.map((x) => JSON.stringify(x)).join('\n') + '\n';
  writeFileSync(join(out, 'openclaw-record.jsonl'), jsonl(records));
  writeFileSync(join(out, 'openclaw-record_prm.jsonl'), jsonl(judged));
  return out;
}

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
    # a turn decided after its session ended counts on a fresh counter (counter_key, else session)
    keys = [r.get("counter_key", r["session"]) for r in rows]
    ds = gate.decide([r["fields"] for r in rows], keys, judged)
    for i, d in enumerate(ds):
        out[ks[i]] = gate.json_decision(d)
    # OpenClawAPIServer._submit_turn_sample, in submission (judging) order: a turn without a next
    # state or scored 0 is excluded (loss mask 0), unless it has a next state and its session has
    # no effective sample yet (self._session_effective); an included turn counts for its session;
    # the counter popped at session end: the turns submitted after it count afresh (counter_key)
    session_effective = {}
    for i in judged:
        f, sid = rows[i]["fields"], keys[i]
        exclude = (not f["has_next_state"]) or f["reward"] == 0
        if exclude and f["has_next_state"] and session_effective.get(sid, 0) == 0:
            exclude = False
        if not exclude:
            session_effective[sid] = session_effective.get(sid, 0) + 1
        server[ks[i]] = 0 if exclude else 1
print(json.dumps({"decisions": out, "server": server}))
`;

async function run(gate: string, name: string, data = join(EX, 'openclaw')) {
  const gateFile = join(dir, `${name}.txt`);
  // a built-in gate by name: the import reads its rules, the export its name
  writeFileSync(gateFile, builtinGateByName(gate, defaultConfig()) ?? gate);
  const samples = join(dir, `${name}.samples.jsonl`);
  // the import and the export in process (importMain, exportGateMain: what the commands run; a
  // process costs about 1 s of CPU more; src/cli/import.test.ts and export-gate.test.ts run them so)
  const imported = await runInProcess(importMain, ['--format', 'openclaw', data, '--states', join(EX, 'states.json'), '--behaviors', join(EX, 'behaviors-tools.json'), '--gate', gateFile, '--samples-out', samples], () => 1);
  expect(imported.code, imported.stderr).toBe(0);
  const module = join(dir, `${name}.py`);
  const exported = await runInProcess(async (argv) => exportGateMain(argv), [gate === 'binary-rl' ? 'binary-rl' : gateFile, '--to', 'python', '--out', module], () => 1);
  expect(exported.code, exported.stderr).toBe(0);
  writeFileSync(join(dir, 'driver.py'), DRIVER);
  const py = JSON.parse(execFileSync('python3', [join(dir, 'driver.py'), module, samples], { encoding: 'utf8', timeout: scaled(60_000), maxBuffer: 1 << 26 })) as { decisions: unknown[]; server: number[] };
  const lines = readFileSync(samples, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { decision: Record<string, unknown>; fields: Record<string, unknown>; judge_order: number });
  return { py, lines, rules: [...new Set(lines.map((l) => l.decision.rule))].sort() };
}

describe('an exported gate on the shipped OpenClaw-RL example, imported with --samples-out', () => {
  it('decides every sample as the lab did (the decision of each line), steps and judging order as the lines give them', async () => {
    const { py, lines, rules } = await run(CUSTOM, 'custom');
    expect(lines.length).toBe(1280);
    expect(py.decisions).toEqual(lines.map((l) => l.decision));
    // each turn of the shipped example is its session's first (turn 0) and has a next state, so
    // rules 0 and 3 never fire here (the multi-turn variant below reaches them); the others do
    expect(rules).toEqual([1, 2, 4, 5]);
  }, scaled(240_000));

  it('decides as the lab on the multi-turn variant, where turns lack a next state, sessions count effective turns and the judging order is not the file order', async () => {
    const { py, lines, rules } = await run(CUSTOM, 'custom-multi', multiTurnVariant());
    expect(lines.length).toBe(1280);
    expect(py.decisions).toEqual(lines.map((l) => l.decision));
    expect(rules).toEqual([0, 1, 2, 3, 4, 5]);
    // the counter and the order are really exercised: zero-reward turns after an effective one in
    // their session are not promoted, and the judging order differs from the file order
    expect(lines.some((l) => l.fields.reward === 0 && (l.fields.session_effective_before as number) > 0 && l.decision.rule !== 2)).toBe(true);
    expect(lines.some((l, i) => i > 0 && l.judge_order < lines[i - 1].judge_order)).toBe(true);
    // each session ends on its last main turn (X-Session-Done), so its third turn counts afresh
    expect(lines.filter((l) => (l as { counter_key?: string }).counter_key !== undefined).length).toBeGreaterThan(0);
  }, scaled(240_000));

  for (const [what, data] of [['the shipped example', undefined], ['the multi-turn variant', 'multi']] as const)
    it(`the server's at-least-one as a gate (built-in Binary RL, reading session_effective_before) decides as _submit_turn_sample on ${what}`, async () => {
      const { py, lines } = await run('binary-rl', `binary-rl-${data ?? 'shipped'}`, data ? multiTurnVariant() : undefined);
      expect(py.decisions).toEqual(lines.map((l) => l.decision));
      expect(lines.map((l) => l.decision.loss_mask)).toEqual(py.server);
      // promotions happen (rule 1, "at-least-one"); on the variant, zero-reward turns also go unpromoted
      expect(lines.filter((l) => l.decision.rule === 1).length).toBeGreaterThan(0);
      if (data) expect(lines.filter((l) => l.fields.reward === 0 && l.decision.loss_mask === 0).length).toBeGreaterThan(0);
    }, scaled(240_000));
});
