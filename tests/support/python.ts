// Runs exported gate modules under python3 in one process per batch (not one per case): the modules
// are written to a temporary folder, the cases to a JSON-lines file whose numbers keep what JSON
// loses (NaN, ±Infinity, -0 written as Python's json reads them), and each case's decisions come
// back with their floats as Python's repr, so that -0, NaN and the last bit compare exactly.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GateDecision } from '../../src/core/gates';

export interface PyCase {
  /** Index of the module (in the modules given to runPython). */
  module: number;
  samples: readonly Record<string, unknown>[];
  sessionKeys?: readonly (string | number)[];
  judged?: readonly number[];
}

/** A case's outcome: the decisions (the lab's GateDecision shape), or the error's class and message. */
export type PyOutcome = { decisions: GateDecision[] } | { error: string; message: string };

/** JSON with NaN, Infinity, -Infinity and -0.0 spelled as Python's json module reads them. */
export function pyJson(v: unknown): string {
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return 'NaN';
    if (v === Infinity) return 'Infinity';
    if (v === -Infinity) return '-Infinity';
    if (Object.is(v, -0)) return '-0.0';
    return JSON.stringify(v);
  }
  if (Array.isArray(v)) return `[${v.map(pyJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v).filter(([, x]) => x !== undefined);
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${pyJson(x)}`).join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

/** A float as Python's repr wrote it. */
export function fromRepr(s: string): number {
  if (s === 'nan') return NaN;
  if (s === 'inf') return Infinity;
  if (s === '-inf') return -Infinity;
  return Number(s);
}

const DRIVER = String.raw`
import importlib.util, json, sys
folder, count = sys.argv[1], int(sys.argv[2])
mods = []
for i in range(count):
    spec = importlib.util.spec_from_file_location("gate_%d" % i, "%s/gate_%d.py" % (folder, i))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    mods.append(m)
out = open(folder + "/out.jsonl", "w")
for line in open(folder + "/cases.jsonl"):
    c = json.loads(line)
    m = mods[c["module"]]
    try:
        ds = m.decide(c["samples"], c.get("session_keys"), c.get("judged"))
        row = {"decisions": [[d["rule"], d["queued"], d["loss_mask"], repr(d["reward"]), repr(d["opd_weight"]), d["uses_hint"]] for d in ds]}
        for d in ds:
            assert type(d["rule"]) is int and type(d["queued"]) is bool and type(d["loss_mask"]) is int, d
            assert type(d["reward"]) is float and type(d["opd_weight"]) is float and type(d["uses_hint"]) is bool, d
    except Exception as e:
        row = {"error": type(e).__name__, "message": str(e)}
    out.write(json.dumps(row) + "\n")
out.close()
`;

/** Run the cases against the modules' decide() in one python3 process. */
export async function runPython(modules: readonly string[], cases: readonly PyCase[], timeoutMs: number): Promise<PyOutcome[]> {
  const dir = mkdtempSync(join(tmpdir(), 'invlab-gate-py-'));
  try {
    modules.forEach((src, i) => writeFileSync(join(dir, `gate_${i}.py`), src));
    const lines = cases.map((c) => pyJson({ module: c.module, samples: c.samples, session_keys: c.sessionKeys, judged: c.judged }));
    writeFileSync(join(dir, 'cases.jsonl'), lines.join('\n') + '\n');
    writeFileSync(join(dir, 'driver.py'), DRIVER);
    await new Promise<void>((resolve, reject) =>
      execFile('python3', [join(dir, 'driver.py'), dir, String(modules.length)], { timeout: timeoutMs, maxBuffer: 1 << 24 }, (err, _out, stderr) =>
        err ? reject(new Error(`python3 failed: ${err.message}\n${stderr}`)) : resolve(),
      ),
    );
    return readFileSync(join(dir, 'out.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => {
        const row = JSON.parse(l) as { decisions?: [number, boolean, number, string, string, boolean][]; error?: string; message?: string };
        if (!row.decisions) return { error: row.error!, message: row.message! };
        return {
          decisions: row.decisions.map(([rule, queued, lossMask, reward, opd, usesHint]) => ({
            rule, queued, lossMask: lossMask as 0 | 1, reward: fromRepr(reward), opdWeight: fromRepr(opd), usesHint,
          })),
        };
      });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const show = (v: unknown) => (Object.is(v, -0) ? '-0' : String(v));

/** Where two decisions differ (Object.is on every field: -0 is not 0, NaN is NaN); null when equal. */
export function decisionDiff(lab: GateDecision, py: GateDecision): string | null {
  for (const k of ['rule', 'queued', 'lossMask', 'reward', 'opdWeight', 'usesHint'] as const) {
    if (!Object.is(lab[k], py[k])) return `${k}: lab ${show(lab[k])}, python ${show(py[k])}`;
  }
  return null;
}
