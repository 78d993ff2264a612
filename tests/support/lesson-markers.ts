// What the headline's numbered markers say on each seed of a lesson, from measure-lessons.ts outputs
// (one JSONL file per seed), with the lab's own marker rule (src/ui/views/divergence.ts):
//   npx tsx tests/support/lesson-markers.ts --state math [--eps 0.02] [--samples 64] s1.jsonl s2.jsonl ...
// Per seed: each marker (step, from→to, token entropy share of start), the step the state's
// support first read 1, token entropy share at the last step. Then median and the order-statistic
// 95 % interval of the median over seeds, and how many seeds' last marker is a divergence (pink).
import { readFileSync } from 'node:fs';
import type { MetricsFrame } from '../../src/core/metrics';
import { behaviorPoints } from '../../src/core/measure/state-markers';
import { divergenceMarkers } from '../../src/core/measure/divergence';

const argv = process.argv.slice(2);
const opt = (name: string, dflt: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv.splice(i, 2)[1] : dflt;
};
const state = opt('--state', 'math');
const eps = Number(opt('--eps', '0.02'));
const samples = Number(opt('--samples', '64'));
const HIGH = 0.8; // the plot's "still high" share (DivergencePlot highShare)

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
/** Distribution-free interval for the median: order statistics k and n+1−k with P ≥ 0.95 (binomial). */
function medianInterval(xs: number[]): [number, number, number] {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  const binom = (k: number) => {
    let c = 1;
    for (let i = 0; i < k; i++) c = (c * (n - i)) / (i + 1);
    return c / 2 ** n;
  };
  let k = 0;
  let tail = 0;
  while (tail + binom(k) <= 0.025) tail += binom(k++);
  const cover = 1 - 2 * tail;
  return k === 0 ? [s[0], s[n - 1], 1] : [s[k - 1], s[n - k], cover];
}

const runs = argv.map((file) => {
  const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { seed: number; step: number; scalars: Record<string, number> });
  const frames = lines.map((l) => ({ step: l.step, scalars: l.scalars }) as unknown as MetricsFrame);
  const tok = frames.map((f) => f.scalars['support/token_entropy'] ?? NaN);
  const h0 = (tok[0] + tok[1] + tok[2]) / 3;
  const markers = divergenceMarkers(
    behaviorPoints(frames, state).map((p, i) => ({ ...p, tokenEntropy: tok[i] })),
    { eps, samples, highShare: HIGH },
  );
  const firstOne = frames.find((f) => f.scalars[`support/behavior_support/${state}`] === 1)?.step ?? null;
  return { seed: lines[0].seed, markers: markers.map((m) => `${m.step}:${m.from}→${m.to}@${Math.round(m.tokenShare * 100)}%`), last: markers[markers.length - 1] ?? null, firstOne, endShare: tok[tok.length - 1] / h0 };
});

for (const r of runs) console.log(JSON.stringify({ seed: r.seed, markers: r.markers, supportFirst1: r.firstOne, tokenShareAtEnd: Math.round(r.endShare * 100) / 100 }));
const band = (xs: number[]) => {
  const [lo, hi, cover] = medianInterval(xs);
  return { median: median(xs), ci: [lo, hi], cover: Math.round(cover * 1000) / 1000, min: Math.min(...xs), max: Math.max(...xs), n: xs.length };
};
const lasts = runs.filter((r) => r.last).map((r) => r.last!);
console.log(
  JSON.stringify({
    state,
    seeds: runs.length,
    tokenShareAtLastMarker: band(lasts.map((m) => m.tokenShare)),
    lastMarkerStep: band(lasts.map((m) => m.step)),
    lastMarkerIsDivergence: `${lasts.filter((m) => m.kind === 'divergence').length} of ${lasts.length}`,
    lastMarkerReaches1: `${lasts.filter((m) => m.to === 1).length} of ${lasts.length}`,
    supportFirst1: band(runs.flatMap((r) => (r.firstOne === null ? [] : [r.firstOne]))),
    tokenShareAtEnd: band(runs.map((r) => r.endShare)),
  }),
);
