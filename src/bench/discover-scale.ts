// `npm run bench -- --only discover-scale`: discovery at scale (issue 45, "Scale").
//   big step: one verl step of --scale-samples responses (default 8,192: a 7B GRPO run at 512 prompts
//     × 16) of --scale-min-tokens..--scale-max-tokens tokens (default 2,000..8,000) of reasoning traces
//     (reasoning-step.ts), imported by the real CLI (`npm run import --format verl DIR`, no rule files:
//     states and behaviors discovered) in a child process: wall seconds, CPU seconds and peak RSS
//     (exit-usage.ts), what it discovered (its summary line), with --jobs 1 (this thread only) and
//     --jobs 2 (a worker thread makes the discovery features: src/cli/import-jobs.ts; its metrics
//     must be those of --jobs 1, byte for byte). Targets: ≤ 30 s and ≤ 300 MB. Then the
//     same import again with --samples-out (not timed), its labels against each line's truth:
//     behavior NMI per true kind of request, states NMI, and which labels each true behavior got.
//   follow: one step of --follow-samples short answers (default 1,152) read and measured by the run
//     follower with discovery in one poll (follow.ts's firstStepMs), three times in this process (the
//     first cold): wall and CPU ms of each. Target ≤ 1 s.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importPeak } from './import-memory';
import { firstStepMs, specOf } from './follow';
import { reasoningStepLines, writeReasoningStep, type StepLine } from './reasoning-step';
import { nmi } from '../core/measure/nmi';

export interface DiscoverScaleOptions {
  samples: number;
  prompts: number;
  minTokens: number;
  maxTokens: number;
  followSamples: number;
}

/** The summary line the import prints last on stderr (`verl: N samples in … steps, states […], behaviors […] …`). */
function summaryOf(stderr: string): string {
  return stderr.trim().split('\n').pop()?.replace(/, reward: .*$/, '') ?? '';
}

/** The import's labels (its --samples-out lines) against the lines' truth. */
function againstTruth(samplesOut: string, truth: readonly Omit<StepLine, 'json'>[]) {
  const rows = samplesOut.trimEnd().split('\n').map((l) => JSON.parse(l) as { index: number; state: string; behavior: string });
  if (rows.length !== truth.length) throw new Error(`discover-scale: ${truth.length} lines written, ${rows.length} labelled`);
  const byKind = new Map<string, { truth: string[]; label: string[] }>();
  const labels = new Map<string, Map<string, number>>();
  for (const r of rows) {
    const t = truth[r.index];
    const k = byKind.get(t.kind) ?? { truth: [], label: [] };
    byKind.set(t.kind, k);
    k.truth.push(t.behavior);
    k.label.push(r.behavior);
    const m = labels.get(t.behavior) ?? new Map<string, number>();
    labels.set(t.behavior, m);
    m.set(r.behavior, (m.get(r.behavior) ?? 0) + 1);
  }
  const perKind = Object.fromEntries([...byKind].map(([kind, k]) => [kind, +nmi(k.truth, k.label).toFixed(3)]));
  return {
    behavior_nmi_per_kind: perKind,
    behavior_nmi_min: Math.min(...Object.values(perKind)),
    states_nmi: +nmi(rows.map((r) => truth[r.index].kind), rows.map((r) => r.state)).toFixed(3),
    labels_by_truth: Object.fromEntries([...labels].map(([b, m]) => [b, Object.fromEntries(m)])),
  };
}

export async function runDiscoverScaleBench(o: DiscoverScaleOptions): Promise<object> {
  const work = mkdtempSync(join(tmpdir(), 'invlab-discover-scale-'));
  const dir = join(work, 'run');
  mkdirSync(dir);
  try {
    const g0 = performance.now();
    const { bytes, truth } = await writeReasoningStep(join(dir, '1.jsonl'), { samples: o.samples, prompts: o.prompts, minTokens: o.minTokens, maxTokens: o.maxTokens });
    const writeSeconds = (performance.now() - g0) / 1000;
    const one = await importPeak(dir, work, null, true, ['--jobs', '1']);
    const metricsOne = readFileSync(join(work, 'metrics.jsonl'), 'utf8');
    const two = await importPeak(dir, work, null, true, ['--jobs', '2', '--overwrite']);
    if (readFileSync(join(work, 'metrics.jsonl'), 'utf8') !== metricsOne) throw new Error('discover-scale: --jobs 2 wrote other metrics than --jobs 1');
    await importPeak(dir, work, null, true, ['--samples-out', join(work, 'samples.jsonl'), '--overwrite', '--jobs', '1']);
    const quality = againstTruth(readFileSync(join(work, 'samples.jsonl'), 'utf8'), truth);
    // the follow's step: short answers, no think (a few dozen tokens each)
    const short = [...reasoningStepLines({ samples: o.followSamples, prompts: Math.max(1, Math.round(o.followSamples / 16)), minTokens: 20, maxTokens: 120, shortAnswers: true })].map((l) => l.json);
    // three times: the first in a cold process (its code not yet compiled), the others as a watch's later steps
    const follow = [];
    for (let i = 0; i < 3; i++) follow.push(await firstStepMs(short, short.length, specOf(true)));
    return {
      bench: 'discover-scale',
      big_step: {
        samples: o.samples,
        prompts: o.prompts,
        tokens: `${o.minTokens}..${o.maxTokens}`,
        input_mb: +(bytes / 1e6).toFixed(1),
        write_seconds: +writeSeconds.toFixed(1),
        seconds: +one.seconds.toFixed(1),
        cpu_seconds: +one.cpuSeconds.toFixed(1),
        peak_rss_mb: +one.peakRssMb.toFixed(1),
        limit_seconds: 30,
        limit_mb: 300,
        ok: one.seconds <= 30 && one.peakRssMb <= 300,
        jobs_2: { seconds: +two.seconds.toFixed(1), cpu_seconds: +two.cpuSeconds.toFixed(1), peak_rss_mb: +two.peakRssMb.toFixed(1), speedup: +(one.seconds / two.seconds).toFixed(2), same_metrics: true, ok: two.seconds <= 30 && two.peakRssMb <= 300 },
        discovered: summaryOf(one.stderr),
        against_truth: quality,
      },
      follow_short_step: { samples: short.length, read_and_measure_ms: follow.map((f) => f.wallMs), cpu_ms: follow.map((f) => f.cpuMs), limit_ms: 1000, ok: follow.every((f) => f.wallMs <= 1000) },
      node: process.version,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
