// `npm run bench -- --follow`: the run follower (src/core/import/follow/) on a verl rollout folder
// written step by step in a temp directory, read through the CLI's Node folder (src/cli/watch/node-fs.ts).
//   latency: a step file of --follow-samples lines (default 1,152) written whole, then polled every
//     50 ms with the follower's default settle time (500 ms: a verl file with no later step is whole
//     once it ends with a newline and holds still that long): ms from the write to its frame, and
//     the ms of the poll that read and measured it;
//   memory: --follow-steps steps (default 1,000) followed as a trainer writes them (each step
//     complete when the next one's file appears), RSS sampled after every step: peak and last.
//   with --discover also: what discovery adds to one step (the same step file followed with the
//     example rules, then with none: wall and CPU ms of the poll that measures it), on the example's
//     lines and on a step of the import bench's generated run (no two responses alike, the
//     expensive case); and the clusters saved beside the frames a tenth of the way and at the end.
// Samples are the shipped verl example's lines, cycled, with the step renumbered.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DISCOVER_BEHAVIORS, DISCOVER_STATES, RunFollower, parseBehaviorRuleSet, parseStatesSpec, type DiscoverySnapshot, type MeasureSpec } from '../core/import/index';
import { nodeRegexEngine } from '../io/regex/node';
import { nodeFolder } from '../cli/watch/node-fs';
import { runLines } from './import-memory';

const EXAMPLES = join(import.meta.dirname, '../../public/examples');

function stepText(lines: readonly string[], step: number, n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += `${lines[(step * 7 + i) % lines.length].replace(/"step":\d+/, `"step":${step}`)}\n`;
  return out;
}

/** The shipped example rules, or none (states and behaviors discovered). */
export function specOf(discover: boolean): MeasureSpec {
  if (discover) return { states: DISCOVER_STATES, behaviors: DISCOVER_BEHAVIORS, eps: 0.05 };
  return {
    states: parseStatesSpec(JSON.parse(readFileSync(join(EXAMPLES, 'states.json'), 'utf8'))),
    behaviors: parseBehaviorRuleSet(JSON.parse(readFileSync(join(EXAMPLES, 'behaviors-regex.json'), 'utf8'))),
    eps: 0.05,
  };
}

/** Wall and CPU ms of the poll that reads and measures one whole step file, followed with `spec` in a fresh folder. */
export async function firstStepMs(lines: readonly string[], samples: number, spec: MeasureSpec): Promise<{ wallMs: number; cpuMs: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'invlab-follow-'));
  try {
    let done = false;
    const follower = new RunFollower(nodeFolder(dir), { format: 'verl', spec, regex: nodeRegexEngine(), settleMs: 0 }, { frame: () => (done = true), notice: () => undefined });
    writeFileSync(join(dir, '1.jsonl'), stepText(lines, 1, samples));
    writeFileSync(join(dir, '2.jsonl'), '');
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    await follower.poll();
    const c = process.cpuUsage(c0);
    if (!done) throw new Error('follow bench: step 1 was not measured in one poll');
    return { wallMs: Math.round(performance.now() - t0), cpuMs: Math.round((c.user + c.system) / 1000) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runFollowBench(opts: { steps: number; samples: number; discover?: boolean }) {
  const dir = mkdtempSync(join(tmpdir(), 'invlab-follow-'));
  const lines = readdirSync(join(EXAMPLES, 'verl')).flatMap((f) => readFileSync(join(EXAMPLES, 'verl', f), 'utf8').split('\n').filter(Boolean));
  const spec = specOf(!!opts.discover);
  // what discovery adds to a step: the same step read and measured with rules, then without
  const added = opts.discover ? { rules: await firstStepMs(lines, opts.samples, specOf(false)), discover: await firstStepMs(lines, opts.samples, spec) } : null;
  // the worst case for discovery: a step of the generated run of the import bench, no two responses alike (rules: none apply)
  const next = runLines();
  const unlike = Array.from({ length: opts.samples }, (_, i) => next(i, 1).trimEnd());
  const addedUnlike = opts.discover ? { rules: await firstStepMs(unlike, opts.samples, specOf(false)), discover: await firstStepMs(unlike, opts.samples, spec) } : null;
  let frames = 0;
  let lastStep = -1;
  // the discovered clusters as saved beside the frames: their size a tenth of the way and at the end (bounded: not growing per step)
  let snap: DiscoverySnapshot | null = null;
  let early: ReturnType<typeof clustersOf> = null;
  const follower = new RunFollower(nodeFolder(dir), { format: 'verl', spec, regex: nodeRegexEngine() }, {
    frame: (f) => ((frames++), (lastStep = f.step)),
    notice: () => undefined,
    discovered: (s) => {
      snap = s;
      if (lastStep === Math.ceil(opts.steps / 10)) early = clustersOf(s, lastStep);
    },
  });
  try {
    // latency: step 1 alone, whole
    writeFileSync(join(dir, '1.jsonl'), stepText(lines, 1, opts.samples));
    const t0 = performance.now();
    let readMs = 0;
    let readCpuMs = 0;
    while (lastStep !== 1) {
      const a = performance.now();
      const c0 = process.cpuUsage();
      await follower.poll();
      const c = process.cpuUsage(c0);
      if (lastStep === 1) (readMs = performance.now() - a), (readCpuMs = (c.user + c.system) / 1000);
      else await new Promise((r) => setTimeout(r, 50));
    }
    const latencyMs = performance.now() - t0;
    // memory: the rest of the run, each step complete when the next file appears
    let peak = process.memoryUsage().rss;
    const start = performance.now();
    const cpu0 = process.cpuUsage();
    for (let step = 2; step <= opts.steps; step++) {
      writeFileSync(join(dir, `${step}.jsonl`), stepText(lines, step, opts.samples));
      await follower.poll();
      peak = Math.max(peak, process.memoryUsage().rss);
    }
    await follower.finish();
    const mb = (x: number) => Math.round((x / 2 ** 20) * 10) / 10;
    return {
      follow: {
        rules: opts.discover ? 'none: states and behaviors discovered' : 'the shipped example rules',
        samplesPerStep: opts.samples,
        latency: { stepWrittenToFrameMs: Math.round(latencyMs), readAndMeasureMs: Math.round(readMs), readAndMeasureCpuMs: Math.round(readCpuMs), settleMs: 500, pollMs: 50, limitMs: 1000, ok: latencyMs < 1000 },
        // discovery's own cost on a step (the same 1,152-line step, rules vs none; limit 1 s)
        ...(added && addedUnlike ? { discoveryAdds: { exampleStep: adds(added), unlikeResponsesStep: adds(addedUnlike) } } : {}),
        discovered: opts.discover ? { early, end: clustersOf(snap, lastStep) } : undefined,
        memory: { steps: opts.steps, frames, peakRssMb: mb(peak), lastRssMb: mb(process.memoryUsage().rss), openStepsAtEnd: follower.openSteps, limitMb: 200, ok: mb(peak) <= 200, secondsPerStep: Math.round((performance.now() - start) / (opts.steps - 1)) / 1000, cpuSecondsPerStep: cpuPerStep(cpu0, opts.steps - 1) },
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function cpuPerStep(from: NodeJS.CpuUsage, steps: number): number {
  const c = process.cpuUsage(from);
  return Math.round((c.user + c.system) / 1000 / steps) / 1000;
}

/** What the saved clusters hold: groups named (current and merged away), candidates, and the saved JSON's size. */
function clustersOf(s: DiscoverySnapshot | null, step: number) {
  if (!s) return null;
  const count = (d: DiscoverySnapshot['behaviors']) => ({
    named: d?.clusters.filter((c) => c.name !== null && c.mergedInto === null).length ?? 0,
    mergedAway: d?.clusters.filter((c) => c.mergedInto !== null).length ?? 0,
    candidates: d?.clusters.filter((c) => c.name === null).length ?? 0,
  });
  return { step, behaviors: count(s.behaviors), states: count(s.states), savedKb: Math.round(JSON.stringify(s).length / 102.4) / 10 };
}

/** What discovery adds to a step: its wall and CPU ms over the rules' (limit 1 s). */
function adds(x: { rules: { wallMs: number; cpuMs: number }; discover: { wallMs: number; cpuMs: number } }) {
  const wallMs = x.discover.wallMs - x.rules.wallMs;
  const cpuMs = x.discover.cpuMs - x.rules.cpuMs;
  return { wallMs, cpuMs, rules: x.rules, discover: x.discover, limitMs: 1000, ok: wallMs <= 1000, cpuOk: cpuMs <= 1000 };
}
