// Proved equal: gates exported by gateToPython, run under python3 (standard library only), decide
// every generated case exactly as the lab's decideInOrder (every field of every decision, compared
// with Object.is: -0 is not 0, NaN is NaN), raise the lab's GateError where it does, and decide the
// built-in methods' gates as the lab; a mutated runtime (floored %, the judging order ignored, …)
// must be caught by the same cases. One python3 process per batch.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { METHOD_NAMES } from '../../config';
import { casesArb, EDGE_NUMBERS, gateTextArb, probeExprArb, probeGate, probeRecords, type GateCaseInput } from '../../../../tests/support/gate-arbitraries';
import { decisionDiff, runPython, type PyCase, type PyOutcome } from '../../../../tests/support/python';
import { scaled } from '../../../../tests/support/speed';
import { binaryRlWholeSessionText, builtinGateText } from '../builtin';
import { compileGate } from '../compile';
import { decideInOrder, GateError } from '../gate';
import { SAMPLE_FIELDS } from '../fields';
import { gateToPython } from './python';

const SEED = 3434;

/** The lab's outcome of a case: decisions, or the GateError's message. */
function labOutcome(text: string, c: GateCaseInput): PyOutcome {
  try {
    return { decisions: decideInOrder(compileGate(text), c.records, c.order).decisions };
  } catch (e) {
    if (e instanceof GateError) return { error: 'GateError', message: e.message };
    throw e;
  }
}

function toPy(module: number, c: GateCaseInput): PyCase {
  return { module, samples: c.records, sessionKeys: c.order?.session, judged: c.order?.judged };
}

/** Every difference between the lab's outcomes and python's, in words. */
function differences(texts: readonly string[], cases: readonly { gate: number; lab: PyOutcome }[], py: readonly PyOutcome[]): string[] {
  const out: string[] = [];
  cases.forEach(({ gate, lab }, k) => {
    const got = py[k];
    const where = `case ${k} (gate ${JSON.stringify(texts[gate])})`;
    if ('error' in lab || 'error' in got) {
      if (!('error' in lab && 'error' in got && lab.message === got.message && got.error === 'GateError')) out.push(`${where}: lab ${JSON.stringify(lab)}, python ${JSON.stringify(got)}`);
      return;
    }
    lab.decisions.forEach((d, i) => {
      const diff = decisionDiff(d, got.decisions[i]);
      if (diff) out.push(`${where}, sample ${i}: ${diff}`);
    });
  });
  return out;
}

/** The built-in methods' gates, over their knobs. */
function builtinTexts(): string[] {
  const out = new Set<string>();
  for (const method of METHOD_NAMES)
    for (const atLeastOne of [true, false])
      for (const maskZeroMode of ['keep', 'drop'] as const)
        for (const normalizeStd of [true, false])
          for (const dynamicSampling of [true, false]) out.add(builtinGateText({ method, atLeastOne, maskZeroMode, wOpd: 0.5, wRl: 2, normalizeStd, dynamicSampling }));
  out.add(binaryRlWholeSessionText({ maskZeroMode: 'keep' })).add(binaryRlWholeSessionText({ maskZeroMode: 'drop' }));
  return [...out];
}

/** A gate deciding whether python's ** equals the lab's on each record: reward ** score against group_reward_mean (computed by the lab), sign of zero included. */
const POW_GATE = [
  'reward ** score == group_reward_mean && 1 / (reward ** score) == 1 / group_reward_mean => drop # same',
  'reward ** score != reward ** score && group_reward_mean != group_reward_mean => drop # both NaN',
  'true => mask0 # differs',
].join('\n');

function powRecords(): Record<string, unknown>[] {
  const special = [...EDGE_NUMBERS, 0.9999999999, 1.0000000001, 1 - 2 ** -40, 1 + 2 ** -40, 2 ** 31 + 0.5, 2 ** 64, -(2 ** 53) - 2, 1e-300, 2.2250738585072014e-308, 4.9e-324, 10, 0.1, 1.5, -1.5, 3.5];
  const pairs: [number, number][] = [];
  for (const x of special) for (const y of special) pairs.push([x, y]);
  const random = fc.sample(fc.tuple(fc.oneof(fc.double(), fc.double({ min: -20, max: 20 }), fc.double({ min: 0.5, max: 2 })), fc.oneof(fc.double(), fc.double({ min: -400, max: 400 }), fc.integer({ min: -1100, max: 1100 }))), { seed: SEED, numRuns: 20_000 });
  return [...pairs, ...random].map(([reward, score]) => ({ reward, score, group_reward_mean: reward ** score }));
}

interface Batch {
  texts: string[];
  cases: { gate: number; input: GateCaseInput; lab: PyOutcome }[];
}

const GENERATED = 240;
/** Hand-written probes of the semantic points a random expression rarely reaches, on records that reach them. */
const EDGE_PROBES = ['min(reward, score)', 'max(score, reward)', 'min(votes)', 'max(votes)', '1 / min(reward, score)', '1 / max(reward, score)', 'sum(votes)', 'mean(votes)', '(reward in [reward, score]) ? 1 : 0', 'count(votes, reward)', 'reward % score', 'score % reward', 'reward / score', 'reward ** score'];
const EDGE_RECORDS: Record<string, unknown>[] = [
  { reward: NaN, score: 1, votes: [0.1, 0.2, 0.3] },
  { reward: 1, score: NaN, votes: [1, NaN, 0] },
  { reward: 0, score: -0, votes: [0, -0] },
  { reward: -0, score: 0, votes: [-0, 0] },
  { reward: -7, score: 3, votes: [1e308, 1e308, -1e308] },
  { reward: 7, score: -3, votes: [] },
  { reward: 0, score: 0, votes: [0.1, 0.7, -0.8, 1e-17] },
];
const PROBES = 200;
/** OpenClaw's per-session counter counts the session's earlier turns queued with loss mask 1, not those queued with mask 0. */
const COUNTER_GATE = ['session_effective_before > 0 => drop # after an effective turn', 'reward < 0 => mask0 # negative', 'true => mask1 rl # rest'].join('\n');
const COUNTER_CASE: GateCaseInput = {
  records: [{ reward: -1, score: -1 }, { reward: 1, score: 1 }, { reward: 1, score: 1 }, { reward: -1, score: -1 }],
  order: { session: ['s', 's', 's', 't'], judged: [0, 1, 2, 3] },
};

/** Generated gates (3 cases each), value probes of generated number expressions (3 cases each), the built-in methods' gates (8 cases each), and the ** gate. */
function makeBatch(): Batch {
  const texts: string[] = [];
  const cases: Batch['cases'] = [];
  const add = (text: string, inputs: GateCaseInput[]) => {
    texts.push(text);
    for (const input of inputs) cases.push({ gate: texts.length - 1, input, lab: labOutcome(text, input) });
  };
  fc.sample(gateTextArb, { seed: SEED, numRuns: GENERATED }).forEach((t, i) => add(t, fc.sample(casesArb, { seed: SEED + i, numRuns: 3 })));
  fc.sample(probeExprArb, { seed: SEED + 1, numRuns: PROBES }).forEach((e, i) =>
    add(probeGate(e), fc.sample(casesArb, { seed: SEED + 1000 + i, numRuns: 3 }).map((c) => ({ ...c, records: probeRecords(e, c.records) }))),
  );
  for (const e of EDGE_PROBES) add(probeGate(e), [{ records: probeRecords(e, EDGE_RECORDS) }]);
  add(COUNTER_GATE, [COUNTER_CASE]);
  builtinTexts().forEach((t, i) => add(t, fc.sample(casesArb, { seed: SEED + 2000 + i, numRuns: 8 })));
  add(POW_GATE, [{ records: powRecords() }]);
  return { texts, cases };
}

let cached: Batch | undefined;
const batch = (): Batch => (cached ??= makeBatch());

/** Mutations of the exported runtime, each a way to get the language's semantics wrong; the cases must catch each one. */
const MUTANTS: [name: string, find: string, replace: string][] = [
  ['% floored (Python\'s %)', '    return math.fmod(x, y)', '    return x % y'],
  ['judging order ignored (sample order)', '    order = list(range(len(samples))) if judged is None else list(judged)', '    order = list(range(len(samples)))'],
  ['the counter counts mask-0 samples too', '        if d["queued"] and d["loss_mask"] == 1:', '        if d["queued"]:'],
  ['** by math.pow (correctly rounded, raising)', 'def _pow(x, y):\n', 'def _pow(x, y):\n    try:\n        return math.pow(x, y)\n    except (OverflowError, ValueError):\n        return _NAN\n'],
  ['/ by Python\'s / (raises on zero)', 'def _div(x, y):\n', 'def _div(x, y):\n    return x / y\n'],
  ['in by Python\'s in (identity finds NaN)', 'def _in(a, xs):\n', 'def _in(a, xs):\n    return a in xs\n'],
  ['min by Python\'s min (NaN by position)', 'def _min(xs):\n', 'def _min(xs):\n    return min(xs, default=_INF)\n'],
  ['min(-0, 0) is the first zero', '        return a if math.copysign(1.0, a) < 0 else b', '        return a'],
  ['sum by math.fsum (exact)', 'def _sum(xs):\n', 'def _sum(xs):\n    return math.fsum(xs)\n'],
  ['a missing reward reads as 0', '    if v is _MISSING:\n        return _NAN', '    if v is _MISSING:\n        return 0.0'],
];

describe('gateToPython: the exported module decides as the lab', () => {
  it('on generated gates over every field and operator, value probes, the built-in methods and 20,000+ operands of **', async () => {
    const b = batch();
    const modules = b.texts.map((t) => gateToPython(t, { labVersion: 'test' }));
    const py = await runPython(modules, b.cases.map((c) => toPy(c.gate, c.input)), scaled(180_000));
    expect(differences(b.texts, b.cases, py).slice(0, 10)).toEqual([]);
    // the cases are informative: most decide (rather than stop at a missing field)
    const decided = py.filter((o) => 'decisions' in o).length;
    expect(decided).toBeGreaterThan(b.cases.length * 0.6);
    // by construction every record of the ** gate matches rule 1 or 2 in the lab; python agrees (not one "differs")
    const powCase = py[py.length - 1];
    expect('decisions' in powCase && powCase.decisions.filter((d) => d.rule === 2).length).toBe(0);
  }, scaled(240_000));

  it('and catches a wrong exporter: each mutant of the runtime differs from the lab on some case', async () => {
    // the first 40 generated gates and the hand-written ones: the generated gates past the first 40
    // and the 200 value probes are left out here (python compiles each mutant's module of every gate:
    // 2,550 modules took 12 of python's 15 s of CPU), the probes' one catch of their own (the counter)
    // made a hand-written case
    const all = batch();
    const keep = (i: number) => i < 40 || i >= GENERATED + PROBES;
    const texts = all.texts.filter((_, i) => keep(i));
    const index = new Map(texts.map((t, i) => [t, i]));
    const b = { texts, cases: all.cases.filter((c) => keep(c.gate)).map((c) => ({ ...c, gate: index.get(all.texts[c.gate])! })) };
    const modules: string[] = [];
    const cases: PyCase[] = [];
    for (const [, find, replace] of MUTANTS) {
      const base = modules.length;
      for (const t of b.texts) {
        const src = gateToPython(t, { labVersion: 'test' });
        expect(src).toContain(find);
        modules.push(src.replace(find, replace));
      }
      // the ** gate's first 2,000 operand pairs (the special ones come first)
      for (const c of b.cases) cases.push(toPy(base + c.gate, c.gate === b.texts.length - 1 ? { records: c.input.records.slice(0, 2000) } : c.input));
    }
    const py = await runPython(modules, cases, scaled(360_000));
    const labCases = b.cases.map((c) => (c.gate === b.texts.length - 1 && 'decisions' in c.lab ? { ...c, lab: { decisions: c.lab.decisions.slice(0, 2000) } } : c));
    const caught = MUTANTS.map(([name], m) => [name, differences(b.texts, labCases, py.slice(m * b.cases.length, (m + 1) * b.cases.length)).length > 0]);
    expect(caught).toEqual(MUTANTS.map(([name]) => [name, true]));
  }, scaled(420_000));
});

describe('gateToPython: what the module carries', () => {
  it('the gate as given and its canonical text, the rules, what it reads, the field table with each meaning, the lab version; ASCII only', () => {
    const text = '  votes_pos>0 and "é😀\ud800" in ["x"]  => drop #  disagree \n\n true => mask1 0.5 * rl_zscore + opd\r\n';
    const src = gateToPython(text, { labVersion: 'invariant-lab@9.9.9+abc' });
    expect(/^[\x00-\x7f]*$/.test(src.replace(/^\s*#.*$/gm, ''))).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'invlab-gate-carry-'));
    try {
      writeFileSync(join(dir, 'g.py'), src);
      const out = execFileSync('python3', ['-c', 'import sys, json; sys.path.insert(0, sys.argv[1]); import g; print(json.dumps({"text": g.GATE_TEXT, "canonical": g.CANONICAL_TEXT, "rules": g.RULES, "reads": sorted(g.READS), "fields": g.FIELDS, "version": g.LAB_VERSION}))', dir], { encoding: 'utf8' });
      const m = JSON.parse(out) as Record<string, unknown>;
      expect(m.text).toBe(text);
      expect(m.canonical).toBe('votes_pos>0 and "é😀\ud800" in ["x"] => drop # disagree\ntrue => mask1 0.5 * rl_zscore + opd');
      expect(m.rules).toEqual([{ when: 'votes_pos>0 and "é😀\ud800" in ["x"]', then: 'drop', label: 'disagree' }, { when: 'true', then: 'mask1 0.5 * rl_zscore + opd', label: '' }]);
      expect(m.reads).toEqual(['group_reward_mean', 'group_reward_std', 'hint_len', 'reward', 'votes_pos']);
      expect(m.fields).toEqual(Object.fromEntries(Object.entries(SAMPLE_FIELDS).map(([k, f]) => [k, { type: f.type, meaning: f.doc, range: f.range }])));
      expect(m.version).toBe('invariant-lab@9.9.9+abc');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
