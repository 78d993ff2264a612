// Round trip: a lab run (tabular engine, real training) exported in every format and imported back
// gives, step by step, the behavior distribution / entropy / support of the lab's own labels of the
// traced samples (the lab's classifier), recovered from the exported text by the rules alone.
import { describe, expect, it } from 'vitest';
import { makeConfig, type Config } from '../config';
import { Run } from '../loop';
import { behaviorScalars } from '../metrics';
import { BUILTIN_TASKS } from '../tasks/builtin';
import { tabularFactory } from '../../../tests/support/factory';
import { openParquet } from '../../io/hyparquet';
import { nodeRegexEngine } from '../../io/regex/node';
import { trlParquet } from '../../io/trl-parquet';
import { measureLogs } from './analyze';
import { EXPORT_FORMATS, exportRun, labRules, type StepTraces } from './formats/export';
import { memorySource } from './sources';
import type { ImportSource } from './types';

const make = tabularFactory();

async function labRun(cfg: Config, n: number): Promise<StepTraces[]> {
  const r = await Run.create(await make(cfg), cfg);
  const out: StepTraces[] = [];
  for (let i = 0; i < n; i++) {
    const f = await r.step();
    out.push({ step: f.step, traces: f.trace });
  }
  r.dispose();
  return out;
}

/** The reference: the lab's own labels of the traced samples, through the lab's metric function. */
function expected(cfg: Config, steps: StepTraces[], eps: number) {
  const names = BUILTIN_TASKS[cfg.task].behaviors.map((b) => b.name);
  return steps.map(({ traces }) => {
    const out: Record<string, number> = {};
    for (const st of new Set(traces.map((t) => t.state))) {
      const counts = new Array(names.length + 1).fill(0);
      for (const t of traces) if (t.state === st) counts[t.behavior === 'invalid' ? names.length : names.indexOf(t.behavior)]++;
      behaviorScalars(st, names, counts, eps, out);
    }
    return out;
  });
}

const pick = (s: Partial<Record<string, number>>) => Object.fromEntries(Object.entries(s).filter(([k]) => /^support\/behavior_(dist|entropy|support)\//.test(k)));

describe('export → import round trip', () => {
  const cases: [string, Config][] = [
    ['strategies, Binary RL', makeConfig({ task: 'strategies', method: 'binary-rl', lr: 0.05, seed: 3 })],
    ['toolchain, OPD', makeConfig({ task: 'toolchain', method: 'opd', lr: 0.05, seed: 4 })],
    ['assistant, GRPO', makeConfig({ task: 'assistant', method: 'grpo', lr: 0.05, seed: 5 })],
  ];
  for (const [label, cfg] of cases)
    it(`${label}: every format gives the lab's behavior-support series`, async () => {
      const steps = await labRun(cfg, 4);
      expect(steps.every((s) => s.traces.length > 0)).toBe(true);
      const eps = 0.05;
      const want = expected(cfg, steps, eps);
      const sources: [string, ImportSource[], 'tools' | 'regex'][] = EXPORT_FORMATS.map((f) => [f, exportRun(steps, cfg, f).map((x) => memorySource(x.name, x.text)), f === 'openclaw' ? 'tools' : 'regex']);
      sources.push([
        'trl',
        steps.map(({ step, traces }) => {
          const { name, bytes } = trlParquet(cfg, traces, step);
          return memorySource(name, bytes);
        }),
        'regex',
      ]);
      for (const [format, src, by] of sources) {
        const m = await measureLogs(src, { ...labRules(cfg, by), eps }, { parquet: openParquet, regex: nodeRegexEngine() });
        expect(m.issues, format).toEqual([]);
        expect(m.frames.map((f) => f.step), format).toEqual(steps.map((s) => s.step));
        m.frames.forEach((f, i) => {
          const got = pick(f.scalars);
          const exp = pick(want[i]);
          // the import lists its rules' behaviors and those seen in the log; the reference lists all of the task's
          for (const [k, v] of Object.entries(exp)) expect(got[k] ?? 0, `${format} step ${f.step} ${k}`).toBeCloseTo(v ?? NaN, 12);
          for (const k of Object.keys(got)) expect(k in exp, `${format} ${k}`).toBe(true);
        });
      }
    });
});
