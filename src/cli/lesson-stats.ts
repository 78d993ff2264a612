// Numbers for the lessons, from `npm run lab -- --out run.jsonl` outputs (one file per seed):
//   npx tsx src/cli/lesson-stats.ts run-s1.jsonl run-s2.jsonl ...
// Per file: H(B|S), I(S;B), best-behavior match and the request gap (src/core/measure/behavior-info.ts,
// recomputed from the sampled behavior distributions, so older outputs work too) averaged over the
// first and last 5 steps; the cascade's onsets (src/core/measure/onset.ts, the one rule): ① mean behavior support
// falls, ② grad/reward_var falls, ③ gap/request_kl rises, ④ esr/effective_rate falls. Then the median
// and range over files. Prints JSON.
import { readFileSync } from 'node:fs';
import { behaviorInfo, requestGap } from '../core/measure/behavior-info';
import { ONSET_RULE, onsetStep, type Point } from '../core/measure/onset';
import { BUILTIN_TASKS, type BuiltinTaskName } from '../core/tasks/builtin';

type Line = Record<string, number>;

function load(file: string): { config: { task: BuiltinTaskName; behaviorSamples: number }; lines: Line[] } {
  const rows = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  const summary = rows.find((r) => 'summary' in r)?.summary as { config: { task: BuiltinTaskName; behaviorSamples: number } } | undefined;
  if (!summary) throw new Error(`${file}: no summary line (an unfinished run?)`);
  return { config: summary.config, lines: rows.filter((r) => !('summary' in r)) as Line[] };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const band = (xs: (number | null)[]) => {
  const v = xs.filter((x): x is number => x !== null);
  return { median: v.length ? median(v) : null, min: v.length ? Math.min(...v) : null, max: v.length ? Math.max(...v) : null, n: v.length, of: xs.length };
};
const r3 = (x: number) => Math.round(x * 1000) / 1000;

function perFile(file: string) {
  const { config, lines } = load(file);
  const task = BUILTIN_TASKS[config.task];
  const names = [...task.behaviors.map((b) => b.name), 'invalid'];
  const measures = lines.map((l) => {
    const dists = task.states.map((st) => names.map((b) => l[`support/behavior_dist/${st.name}/${b}`]));
    const info = behaviorInfo(dists, task.good);
    const counts = dists.map((row) => row.map((p) => Math.round(p * config.behaviorSamples)));
    const support = task.states.reduce((a, st) => a + l[`support/behavior_support/${st.name}`], 0) / task.states.length;
    return { step: l.step, info, gap: requestGap(counts, task.good), support, rewardVar: l['grad/reward_var'], esr: l['esr/effective_rate'] };
  });
  const w = ONSET_RULE.window;
  const avg = (xs: typeof measures, f: (m: (typeof measures)[number]) => number) => r3(xs.reduce((a, m) => a + f(m), 0) / xs.length);
  const ends = (f: (m: (typeof measures)[number]) => number) => ({ first: avg(measures.slice(0, w), f), last: avg(measures.slice(-w), f) });
  const series = (f: (m: (typeof measures)[number]) => number): Point[] => measures.map((m) => ({ step: m.step, value: f(m) }));
  return {
    file,
    condEntropy: ends((m) => m.info.condEntropy),
    mutualInfo: ends((m) => m.info.mutualInfo),
    bestMatch: ends((m) => m.info.bestMatch),
    requestGap: ends((m) => m.gap),
    support: ends((m) => m.support),
    rewardVar: ends((m) => m.rewardVar),
    esr: ends((m) => m.esr),
    onsets: {
      support: onsetStep(series((m) => m.support), 'fall'),
      rewardVar: onsetStep(series((m) => m.rewardVar), 'fall'),
      requestGap: onsetStep(series((m) => m.gap), 'rise'),
      esr: onsetStep(series((m) => m.esr), 'fall'),
    },
  };
}

const files = process.argv.slice(2);
if (!files.length) {
  console.error('usage: npx tsx src/cli/lesson-stats.ts RUN.jsonl [...]');
  process.exit(2);
}
const runs = files.map(perFile);
const keys = ['condEntropy', 'mutualInfo', 'bestMatch', 'requestGap', 'support', 'rewardVar', 'esr'] as const;
const summary = Object.fromEntries(keys.map((k) => [k, { first: band(runs.map((r) => r[k].first)), last: band(runs.map((r) => r[k].last)) }]));
const onsets = Object.fromEntries((['support', 'rewardVar', 'requestGap', 'esr'] as const).map((k) => [k, band(runs.map((r) => r.onsets[k]))]));
console.log(JSON.stringify({ rule: ONSET_RULE, runs, summary, onsets }, null, 1));
