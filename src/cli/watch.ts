// Follow a training run as it writes, like `tensorboard --logdir`:
//   npm run watch -- --format verl|trl|openclaw|jsonl DIR [--states RULES.json] [--behaviors RULES.json]
//     [--gate GATE] [--out frames.jsonl] [--idle-exit S] [--on-alarm CMD] [--eps 0.05] [--poll-ms 250]
//     [--reward COL[+COL…]] [--reward-threshold τ[,τ']] (which number is the judge's score, as in npm run import)
//     [--port N [--site DIR]] [--progress]
// Without --states / --behaviors, states and behaviors are discovered (src/core/import/discover/) and the
// clusters are saved beside --out (<out>.discover.json) for a restart. Each step's frame, once its writer has completed the step (src/core/import/follow/), is appended
// to --out (the lines `npm run import --out` writes) and printed as one line: per-state behavior
// entropy and support, token entropy, the gate's effective sample rate, alarms. Re-run on the same
// DIR and --out, it resumes: steps already written are not counted again, a step file rewritten
// meanwhile is. --idle-exit S ends it after S seconds without new data (the clock starts at launch).
// Ctrl-C writes the steps still open as the one-shot import would and exits. --on-alarm CMD runs CMD
// (a shell command) with each alarm as JSON on its standard input. --port N also serves the built lab
// (--site, default dist/) on 127.0.0.1:N with the run open in its import view, streamed as it is
// followed (src/cli/watch/serve.ts; 0: a free port). --samples-out FILE: one JSON line per sample
// (src/cli/samples-out.ts), resumed with --out. --progress: after each read pass that changed what it says,
// one line on stderr, `progress {JSON}`: the bytes read of each file followed and its size as listed,
// and whether every byte listed was read (caughtUp). --out and --samples-out never destroy input
// (src/cli/output-guard.ts): one that is a followed file or inside DIR, a directory, or an existing
// file the watch did not write is refused (exit 2); --overwrite replaces the last kind. Docs: docs/watch.md.
import { spawn } from 'node:child_process';
import { watch as fsWatch } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { parseArgs } from 'node:util';
import { DISCOVER_BEHAVIORS, DISCOVER_STATES, FORMATS, RunFollower, alarmNameLines, discovers, describeReward, newNameLines, parseBehaviorRuleSet, titlesOf, parseStatesSpec, type FollowProgress, type FormatId, type MeasureSpec } from '../core/import/index';
import { RunAlarms, type Alarm } from '../core/import/follow/alarms';
import type { MetricsFrame } from '../core/metrics';
import { parseDecimal } from '../core/config';
import { errorText } from '../core/unknown';
import { openParquet } from '../io/hyparquet';
import { nodeRegexEngine } from '../io/regex/node';
import { parseCommandLine } from './args';
import { readJsonFile, readTextFile } from './files';
import { readGateFile } from './gate-args';
import { REWARD_OPTIONS, REWARD_USAGE, rewardFlags } from './reward-args';
import { FramesFile } from './watch/frames-file';
import { LiveFeed } from './watch/live-feed';
import { nodeFolder } from './watch/node-fs';
import { serveLive, type LiveServer } from './watch/serve';
import { bothSinks, liveSamples } from './watch/live-samples';
import { SAMPLES_OPTIONS, SAMPLES_USAGE, SamplesFile } from './samples-out';
import { EXIT_USAGE } from './exit-codes';
import { OVERWRITE_OPTIONS, OVERWRITE_USAGE, checkOutputs, namedOutputs, type OutputFile } from './output-guard';
import { replaceText } from './temp-file';

const USAGE = `usage: npm run watch -- --format verl|trl|openclaw|jsonl DIR [--states RULES.json] [--behaviors RULES.json] [--gate GATE] [--out frames.jsonl] [--idle-exit S] [--on-alarm CMD] [--eps 0.05] [--poll-ms 250] [--port N [--site DIR]] [--progress] ${REWARD_USAGE} ${SAMPLES_USAGE} ${OVERWRITE_USAGE}`;

/** The built lab --port serves unless --site says another. */
const DIST = fileURLToPath(new URL('../../dist', import.meta.url));

const f2 = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(2));

/** One printed line of a step: per-state behavior entropy and support, token entropy, ESR. */
export function stepLine(f: MetricsFrame, replaced: boolean): string {
  const s = f.scalars;
  const states = Object.keys(s).filter((k) => k.startsWith('support/behavior_entropy/')).map((k) => k.slice(25)).sort();
  const per = states.map((st) => `${st} H ${f2(s[`support/behavior_entropy/${st}`])} support ${s[`support/behavior_support/${st}`] ?? '–'}`).join(' | ');
  const tok = s['support/token_entropy'] !== undefined ? `token H ${f2(s['support/token_entropy'])}` : `token H ${f2(s['support/token_entropy_empirical'])} (empirical)`;
  const esr = s['esr/effective_rate'] !== undefined ? ` | ESR ${Math.round(100 * s['esr/effective_rate'])} %` : '';
  return `step ${f.step}${replaced ? ' (rewritten, replaced)' : ''}: ${per} | ${tok}${esr} | ${s['import/samples'] ?? 0} samples`;
}

/** The states a frame measures and the behaviors it counts a sample of, sorted. */
export function frameNames(f: MetricsFrame): { states: string[]; behaviors: string[] } {
  const states = new Set<string>();
  const behaviors = new Set<string>();
  for (const [k, v] of Object.entries(f.scalars)) {
    if (!k.startsWith('support/behavior_count/') || !((v ?? 0) > 0)) continue;
    const [state, behavior] = k.slice(23).split('/');
    states.add(state);
    behaviors.add(behavior);
  }
  return { states: [...states].sort(), behaviors: [...behaviors].sort() };
}

/** --samples-out resumed beside --out: the lines of steps --out holds are kept, the rest dropped (those steps are read again). */
function openSamples(path: string, written: readonly number[]): SamplesFile {
  const f = new SamplesFile(path, '', written);
  if (f.dropped) console.error(`${path}: ${f.dropped} lines of steps not in --out dropped; those steps are read again`);
  const missing = f.missing(written);
  if (missing.length) console.error(`${path}: no lines for ${missing.length} steps already in --out (written before --samples-out was given); they are not read again`);
  return f;
}

function runAlarmCommand(cmd: string, a: Alarm): void {
  const child = spawn(cmd, { shell: true, stdio: ['pipe', 'inherit', 'inherit'] });
  child.on('error', (e) => console.error(`--on-alarm: ${errorText(e)}`));
  child.stdin.end(`${JSON.stringify(a)}\n`);
}

const OPTIONS = {
  format: { type: 'string' }, states: { type: 'string' }, behaviors: { type: 'string' }, gate: { type: 'string' },
  out: { type: 'string' }, 'idle-exit': { type: 'string' }, 'on-alarm': { type: 'string' }, port: { type: 'string' }, site: { type: 'string' }, progress: { type: 'boolean' },
  eps: { type: 'string', default: '0.05' }, 'poll-ms': { type: 'string', default: '250' }, ...REWARD_OPTIONS, ...SAMPLES_OPTIONS, ...OVERWRITE_OPTIONS,
} as const;
type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

/** What the command line asks for, read and checked. */
interface WatchFlags {
  dir: string;
  format: FormatId;
  spec: MeasureSpec;
  idle: number;
  pollMs: number;
  /** --port: where to serve the live page (0: a free port); null: not served. */
  port: number | null;
  /** --progress: a line on stderr after each read pass that read something. */
  progress: boolean;
  /** Existing files of others that --out / --samples-out replace (--overwrite): emptied before the follow starts. */
  replaced: OutputFile[];
}

/** The flags as a follow, or every problem with them (each names its flag or file). */
function readFlags(v: Values, positionals: readonly string[]): { flags: WatchFlags } | { problems: string[] } {
  const bad: string[] = [];
  const format = v.format as FormatId;
  if (!FORMATS.includes(format)) bad.push(`--format: expected one of ${FORMATS.join(', ')}, got ${v.format ?? 'nothing'}`);
  if (positionals.length !== 1) bad.push('expected one folder to follow');
  const port = v.port === undefined ? null : /^\d{1,5}$/.test(v.port) && Number(v.port) <= 65535 ? Number(v.port) : NaN;
  if (Number.isNaN(port)) bad.push(`--port: expected a port number 0–65535 (0: any free one), got ${v.port}`);
  if (v.site !== undefined && port === null) bad.push('--site: only with --port (it is the built lab that --port serves)');
  const eps = parseDecimal(v.eps) ?? NaN;
  if (!(eps >= 0 && eps < 1)) bad.push(`--eps: expected a number in [0, 1), got ${v.eps}`);
  const idle = v['idle-exit'] === undefined ? Infinity : parseDecimal(v['idle-exit']) ?? NaN;
  if (!(idle > 0)) bad.push(`--idle-exit: expected seconds > 0, got ${v['idle-exit']}`);
  const pollMs = parseDecimal(v['poll-ms']) ?? NaN;
  if (!(pollMs >= 10)) bad.push(`--poll-ms: expected at least 10, got ${v['poll-ms']}`);
  const reward = rewardFlags(v, bad);
  let states, behaviors, gate: string | undefined;
  try {
    states = parseStatesSpec(v.states ? readJsonFile(v.states, '--states') : DISCOVER_STATES);
    behaviors = parseBehaviorRuleSet(v.behaviors ? readJsonFile(v.behaviors, '--behaviors') : DISCOVER_BEHAVIORS);
    if (v.gate) gate = readGateFile(v.gate);
  } catch (e) {
    bad.push(errorText(e));
  }
  let replaced: OutputFile[] = [];
  try {
    const checked = checkOutputs(namedOutputs(v), { folder: positionals[0] }, v.overwrite === true);
    bad.push(...checked.problems);
    replaced = checked.replaced;
  } catch (e) {
    bad.push(errorText(e));
  }
  if (bad.length) return { problems: bad };
  return { flags: { dir: positionals[0], format, spec: { states: states!, behaviors: behaviors!, eps, gate, reward }, idle, pollMs, port, progress: v.progress === true, replaced } };
}

/** Poll until Ctrl-C or `idle` seconds without new data (file watching wakes it early), then finish; `ended` hears how it ended. */
async function follow(follower: RunFollower, { dir, format, idle, pollMs, progress }: WatchFlags, ended: (error?: string) => void): Promise<number> {
  let stop = false;
  let wake: (() => void) | null = null;
  process.on('SIGINT', () => {
    stop = true;
    wake?.();
  });
  let watcher: { close(): void } | null = null;
  try {
    watcher = fsWatch(dir, { recursive: true }, () => wake?.()); // read on change; the poll below is the fallback
  } catch {
    console.error(`${dir}: file watching is not available here; polling every ${pollMs} ms`);
  }
  // said once the follow has started: what a writer appends and purges from now on is read
  console.error(`following ${dir} (${format}); Ctrl-C to stop`);
  let lastChange = Date.now();
  let said = '';
  try {
    while (!stop) {
      if (await follower.poll()) lastChange = Date.now();
      if (progress) said = sayProgress(follower.progress(), said);
      if ((Date.now() - lastChange) / 1000 >= idle) {
        console.error(`no new data for ${idle} s: stopping`);
        break;
      }
      await new Promise<void>((r) => {
        wake = r;
        setTimeout(r, pollMs);
      });
      wake = null;
    }
    await follower.finish();
  } catch (e) {
    console.error(errorText(e));
    ended(errorText(e));
    return 1;
  } finally {
    watcher?.close();
  }
  ended();
  return 0;
}

/** --progress: the line for what the follow has read, when it differs from the last one said; returns it. */
function sayProgress(p: FollowProgress, said: string): string {
  const line = `progress ${JSON.stringify(p)}`;
  if (line !== said) console.error(line);
  return line;
}

async function main(): Promise<number> {
  const args = parseCommandLine(OPTIONS, USAGE);
  if ('exit' in args) return args.exit;
  const v = args.values;
  const read = readFlags(v, args.positionals);
  if ('problems' in read) return console.error(`${read.problems.join('\n')}\n${USAGE}`), EXIT_USAGE;
  const { flags } = read;
  for (const o of flags.replaced) {
    replaceText(o.path, '');
    console.error(`${o.flag} ${o.path}: replaced (--overwrite)`);
  }
  const out = new FramesFile(v.out ?? null);
  const alarms = new RunAlarms(flags.spec.eps);
  const onAlarm = v['on-alarm'];
  if (out.steps.length) console.error(`resuming: ${out.steps.length} steps already in ${v.out} (last ${Math.max(...out.steps)}); they are not counted again`);
  const samples = v['samples-out'] ? openSamples(v['samples-out'], out.steps) : undefined;
  let live: { feed: LiveFeed; server: LiveServer } | null = null;
  // --port: the run's samples for the page's rollout viewer (indexed as measured, read from the folder when asked)
  let discovered = out.discovered;
  const named = new Set<string>();
  let lastNames: { states: string[]; behaviors: string[] } = { states: [], behaviors: [] };
  const served = flags.port !== null ? liveSamples(flags.dir, flags.format, flags.spec.gate, () => discovered) : null;
  if (flags.port !== null) {
    const info = { source: `folder ${flags.dir}, followed by npm run watch`, format: flags.format, eps: flags.spec.eps, reward: describeReward(flags.spec.reward), gate: flags.spec.gate ?? null, behaviors: v.behaviors ? readTextFile(v.behaviors, '--behaviors') : null };
    const feed = new LiveFeed(info, out.frames());
    try {
      live = { feed, server: await serveLive(v.site ?? DIST, flags.port, feed, served?.endpoint) };
    } catch (e) {
      return console.error(errorText(e)), 2;
    }
    const p = live.server.port;
    console.error(`serving the live run at ${live.server.url}/ (127.0.0.1 only; from another machine: ssh -L ${p}:127.0.0.1:${p} THIS-HOST, then open http://localhost:${p}/)`);
  }
  const follower = new RunFollower(
    nodeFolder(flags.dir),
    { format: flags.format, spec: flags.spec, regex: nodeRegexEngine(), parquet: openParquet, samples: bothSinks(samples, served?.sink), written: out.steps, readFiles: out.files, writtenFrames: flags.spec.behaviors.useLogLabel || discovers(flags.spec) ? out.frames() : undefined, discovered: out.discovered ?? undefined },
    {
      frame: (f, replaced) => {
        out.write(f, replaced);
        live?.feed.frame(f, replaced);
        console.log(stepLine(f, replaced));
        // each discovered name once, when a step first holds it, with what a person reads for it: the step lines carry the key names
        lastNames = frameNames(f);
        for (const line of newNameLines(lastNames, titlesOf(discovered), named)) console.log(line);
        for (const a of alarms.add(f)) {
          console.log(`ALARM step ${a.step} ${a.kind}: ${a.message}`);
          for (const line of alarmNameLines(a, titlesOf(discovered))) console.log(line);
          if (onAlarm) runAlarmCommand(onAlarm, a);
        }
      },
      fileRead: (path, stamp) => out.fileRead(path, stamp),
      discovered: (snap) => {
        discovered = snap;
        out.saveDiscovered(snap);
        for (const line of newNameLines(lastNames, titlesOf(snap), named)) console.log(line);
      },
      notice: (t) => {
        console.error(t);
        live?.feed.notice(t);
      },
    },
  );
  const code = await follow(follower, flags, (error) => live?.feed.end(error));
  await live?.server.close();
  return code;
}

main().then((code) => process.exit(code));
