// The per-sample lines against the frames: on the shipped verl, TRL and OpenClaw-RL examples and on
// a followed run (killed and restarted), each step's lines counted per state give exactly the
// frame's support/behavior_dist shares; every sample has one line, with its 0-based place in its
// file; with a gate, the lines' decisions are the frame's funnel.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openParquet } from '../../../io/hyparquet';
import { nodeRegexEngine } from '../../../io/regex/node';
import { EXAMPLES, exampleRules, exampleSources } from '../../../../tests/support/example-import';
import { MemoryFolder, openclawWrites, verlWrites } from '../../../../tests/support/writer-sim';
import type { MetricsFrame } from '../../metrics';
import { DISCOVER_BEHAVIORS, DISCOVER_STATES, measureLogs, type MeasureSpec, type SamplesOut } from '../analyze';
import { RunFollower } from '../follow/follower';
import type { FormatId } from '../types';
import { relativeFile, sampleLine, sampleOfLine, sharesOf, type SampleRecord } from './record';

const EPS = 0.05;
const DIST = 'support/behavior_dist/';
const GATE = 'reward == 0 && session_effective_before == 0 => mask1 rl # at least one\nhas_next_state => mask1 rl\ntrue => mask0';

/** Every frame's behavior_dist keys against the lines' shares (a behavior no line has: 0), and every share a key of the frame. */
function expectSharesMatch(frames: readonly MetricsFrame[], rows: readonly SampleRecord[]): void {
  const shares = sharesOf(rows);
  expect([...shares.keys()].sort((a, b) => a - b)).toEqual(frames.map((f) => f.step));
  let keys = 0;
  for (const f of frames) {
    const byState = shares.get(f.step)!;
    for (const [k, v] of Object.entries(f.scalars)) {
      if (!k.startsWith(DIST)) continue;
      const [state, behavior] = k.slice(DIST.length).split('/');
      expect(byState.get(state)?.get(behavior) ?? 0, `step ${f.step} ${k}`).toBe(v);
      keys++;
    }
    for (const [state, m] of byState) for (const b of m.keys()) expect(f.scalars[`${DIST}${state}/${b}`], `step ${f.step} ${state}/${b}`).toBeDefined();
  }
  expect(keys).toBeGreaterThan(0);
}

function collector(root = ''): SamplesOut & { rows: SampleRecord[] } {
  const out = {
    root,
    rows: [] as SampleRecord[],
    step: (_: number, rows: SampleRecord[]) => void out.rows.push(...rows),
    restart: () => void (out.rows.length = 0),
  };
  return out;
}

const spec = (format: FormatId, gate?: string): MeasureSpec => ({ ...exampleRules(format), eps: EPS, gate });

describe('the samples file of an import', () => {
  for (const format of ['verl', 'trl', 'openclaw'] as const)
    it(`${format}: one line per sample, and the lines' shares are the frames' behavior_dist`, async () => {
      const out = collector();
      const r = await measureLogs(exampleSources(format), spec(format), { format, parquet: openParquet, regex: nodeRegexEngine() }, undefined, out);
      expect(out.rows.length).toBe(r.samples);
      expectSharesMatch(r.frames, out.rows);
      const per = new Map(r.frames.map((f) => [f.step, f.scalars['import/samples']]));
      for (const [step, n] of per) expect(out.rows.filter((x) => x.step === step).length).toBe(n);
      // each (file, index) once, 0-based: a file's first sample has index 0
      const places = out.rows.map((x) => `${x.file}#${x.index}`);
      expect(new Set(places).size).toBe(places.length);
      expect(Math.min(...out.rows.map((x) => x.index))).toBe(0);
      expect(out.rows.every((x) => x.fields === undefined && x.decision === undefined)).toBe(true);
      // lines round-trip through their JSON
      for (const x of out.rows.slice(0, 50)) expect(sampleOfLine(sampleLine(x))).toEqual(x);
    });

  for (const format of ['verl', 'trl', 'openclaw'] as const)
    it(`${format} with no rules (states and behaviors discovered): the lines' shares are the frames' behavior_dist`, async () => {
      const out = collector();
      const r = await measureLogs(exampleSources(format), { states: DISCOVER_STATES, behaviors: DISCOVER_BEHAVIORS, eps: EPS }, { format, parquet: openParquet, regex: nodeRegexEngine() }, undefined, out);
      expect(out.rows.length).toBe(r.samples);
      expectSharesMatch(r.frames, out.rows);
      expect(new Set(out.rows.map((x) => x.behavior)).size).toBeGreaterThan(1);
    });

  it('verl: index is the JSONL line (0-based), file relative to the folder, the score as read', async () => {
    const out = collector('verl');
    await measureLogs(exampleSources('verl'), spec('verl'), { format: 'verl', regex: nodeRegexEngine() }, undefined, out);
    const lines = readFileSync(join(EXAMPLES, 'verl/3.jsonl'), 'utf8').split('\n');
    const mine = out.rows.filter((x) => x.file === '3.jsonl');
    expect(mine.length).toBe(lines.filter(Boolean).length);
    for (const x of mine) {
      const rec = JSON.parse(lines[x.index]) as { score: number; step: number; lab_behavior: string };
      expect([x.reward, x.step]).toEqual([rec.score, rec.step]);
    }
    // the example's own labels agree with the rules on its regex behaviors
    expect(mine.filter((x) => x.behavior === (JSON.parse(lines[x.index]) as { lab_behavior: string }).lab_behavior).length).toBe(mine.length);
  });

  it('trl: index is the parquet row (0-based)', async () => {
    const out = collector('trl');
    await measureLogs(exampleSources('trl'), spec('trl'), { format: 'trl', parquet: openParquet, regex: nodeRegexEngine() }, undefined, out);
    const first = out.rows.filter((x) => x.file === 'completions_00001.parquet');
    expect(first.map((x) => x.index)).toEqual(first.map((_, i) => i));
  });

  it('openclaw with a gate: fields, session, judging order and decisions; the decisions are the frame\'s funnel', async () => {
    const out = collector('openclaw');
    const r = await measureLogs(exampleSources('openclaw'), spec('openclaw', GATE), { format: 'openclaw', regex: nodeRegexEngine() }, undefined, out);
    expectSharesMatch(r.frames, out.rows);
    const record = readFileSync(join(EXAMPLES, 'openclaw/openclaw-record.jsonl'), 'utf8').split('\n');
    for (const f of r.frames) {
      const rows = out.rows.filter((x) => x.step === f.step);
      const counts = [0, 0, 0, 0];
      for (const x of rows) counts[x.decision!.rule]++;
      expect(counts).toEqual(f.series['gate/rule_counts']);
      expect(rows.filter((x) => x.decision!.queued).length).toBe(f.scalars['esr/queued']);
      expect(rows.map((x) => x.judge_order).sort((a, b) => a! - b!)).toEqual(rows.map((_, i) => i));
    }
    for (const x of out.rows) {
      expect(x.file).toBe('openclaw-record.jsonl');
      const rec = JSON.parse(record[x.index]) as { session_id: string };
      expect(x.session).toBe(String(rec.session_id));
      expect(typeof x.fields!.session_effective_before).toBe('number');
      expect(x.fields!.reward).toBe(x.reward ?? 0);
    }
    // the first judged turn of a session that scored 0 is promoted by the at-least-one rule, a later one is not
    const promoted = out.rows.filter((x) => x.decision!.rule === 0);
    expect(promoted.length).toBeGreaterThan(0);
    expect(promoted.every((x) => x.fields!.session_effective_before === 0 && x.decision!.loss_mask === 1)).toBe(true);
    // NaN fields (unknown in a log) are written null
    expect(sampleLine(out.rows[0])).toMatch(/"staleness":null/);
  });

  it('file names are made relative to the folder given', () => {
    expect(relativeFile('/runs/a/verl/3.jsonl', '/runs/a/verl')).toBe('3.jsonl');
    expect(relativeFile('/runs/a/verl/3.jsonl', '/runs/a/verl/')).toBe('3.jsonl');
    expect(relativeFile('C:\\runs\\v\\3.jsonl', 'C:\\runs\\v')).toBe('3.jsonl');
    expect(relativeFile('sub/3.jsonl', '')).toBe('sub/3.jsonl');
    expect(relativeFile('/elsewhere/3.jsonl', '/runs')).toBe('/elsewhere/3.jsonl');
    expect(relativeFile('/runs-b/3.jsonl', '/runs')).toBe('/runs-b/3.jsonl');
  });
});

describe('the samples of a followed run', () => {
  const bytesOf = (f: string) => new Uint8Array(readFileSync(join(EXAMPLES, f)));
  const index = JSON.parse(readFileSync(join(EXAMPLES, 'index.json'), 'utf8')) as { files: Record<FormatId, string[]> };

  for (const format of ['verl', 'openclaw'] as const)
    it(`${format}: killed and restarted, each step's lines are written once and equal the one-shot import's`, async () => {
      const writes =
        format === 'verl'
          ? verlWrites(index.files.verl.map((f) => ({ name: f.replace(/^[^/]+\//, ''), bytes: bytesOf(f) })), { parts: 3, rewrite: 5 })
          : openclawWrites(new TextDecoder().decode(bytesOf(index.files.openclaw[0])), new TextDecoder().decode(bytesOf(index.files.openclaw[1]))).writes;
      const d = new MemoryFolder();
      // the checkpoint as the CLI keeps it: frames by step, and the samples file's lines by step (a step's lines replaced when it comes again)
      const frames = new Map<number, MetricsFrame>();
      const lines = new Map<number, SampleRecord[]>();
      const files: Record<string, { size: number; mtimeMs: number }> = {};
      const start = () =>
        new RunFollower(
          d,
          { format, spec: spec(format, GATE), regex: nodeRegexEngine(), parquet: openParquet, written: frames.keys(), readFiles: { ...files }, now: () => d.clock, settleMs: 25, samples: { root: '', step: (step, rows) => lines.set(step, rows) } },
          { frame: (f) => frames.set(f.step, f), fileRead: (p, s) => (files[p] = s), notice: () => undefined },
        );
      let f = start();
      for (let i = 0; i < writes.length; i++) {
        writes[i](d);
        await f.poll();
        if (i % 11 === 5) {
          for (const step of lines.keys()) if (!frames.has(step)) lines.delete(step); // a restart keeps the lines of written steps only
          f = start();
          await f.poll();
        }
      }
      d.clock += 1000;
      await f.finish();
      const out = collector(format);
      const want = await measureLogs(exampleSources(format), spec(format, GATE), { format, parquet: openParquet, regex: nodeRegexEngine() }, undefined, out);
      const got = [...lines].sort((a, b) => a[0] - b[0]).flatMap(([, rows]) => rows);
      expectSharesMatch([...frames.values()].sort((a, b) => a.step - b.step), got);
      // the writer names the files without the examples' folder (and OpenClaw's without its prefix); a non-OpenClaw session is the file and line
      const name = (p: string) => p.replace(/^.*\//, '').replace(/^openclaw-/, '');
      // OpenClaw purges its record file at each step: a followed line's index is its line in the file as it was then
      const base = (x: SampleRecord) => ({ ...x, file: name(x.file), session: name(x.session!), index: format === 'openclaw' ? 0 : x.index });
      const firstDiff = got.findIndex((x, i) => JSON.stringify(base(x)) !== JSON.stringify(base(out.rows[i])));
      expect(firstDiff === -1 ? null : [base(got[firstDiff]), base(out.rows[firstDiff])]).toBeNull();
      expect(want.samples).toBe(got.length);
    }, 120_000);
});
