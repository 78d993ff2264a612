// npm run import's work, callable in process (tests); src/cli/import.ts is the command and its usage.
import { errorText } from '../core/unknown';
import { basename } from 'node:path';
import type { parseArgs } from 'node:util';
import { DISCOVER_BEHAVIORS, DISCOVER_STATES, FORMATS, ImportError, measureLogs, newNameLines, parseBehaviorRuleSet, parseStatesSpec, type FormatId, type MeasureResult, type MeasureSpec } from '../core/import/index';
import { openParquet } from '../io/hyparquet';
import { parseDecimal, parseWholeNumber } from '../core/config';
import { nodeRegexEngine } from '../io/regex/node';
import { parseCommandLine } from './args';
import { readJsonFile, writeTextFile } from './files';
import { fitFlags, writeFit } from './fit-task';
import type { FitOptions } from '../core/tasks/fit';
import { frameLine } from '../core/import/follow/frame-line';
import { readGateFile } from './gate-args';
import { REWARD_OPTIONS, REWARD_USAGE, rewardFlags } from './reward-args';
import { SIMULATE_OPTIONS, SIMULATE_USAGE, simulateFit, simulateFlags, type SimulateOptions } from './fit-simulate';
import { SAMPLES_OPTIONS, SAMPLES_USAGE, SamplesFile, samplesRoot } from './samples-out';
import { EXIT_USAGE } from './exit-codes';
import { fileSource } from './file-source';
import { importPaths } from './import-paths';
import { OVERWRITE_OPTIONS, OVERWRITE_USAGE, checkOutputs, namedOutputs } from './output-guard';
import { ImportJobs, JOBS_OPTIONS, JOBS_USAGE, jobsFlag } from './import-jobs';

const USAGE = `usage: npm run import -- --format openclaw|verl|trl|jsonl FILES... [--states RULES.json] [--behaviors RULES.json] --out metrics.jsonl [--gate GATE] [--eps 0.05] ${REWARD_USAGE} ${SAMPLES_USAGE} ${OVERWRITE_USAGE} ${JOBS_USAGE} [--openclaw-batch 16] [--fit-task spec.json [--fit-base-steps A..B] [--fit-truth-steps A..B] [--fit-name NAME] ${SIMULATE_USAGE}]`;

const OPTIONS = {
  format: { type: 'string' },
  states: { type: 'string' },
  behaviors: { type: 'string' },
  out: { type: 'string' },
  gate: { type: 'string' },
  eps: { type: 'string', default: '0.05' },
  ...REWARD_OPTIONS,
  'openclaw-batch': { type: 'string', default: '16' },
  'fit-task': { type: 'string' },
  'fit-base-steps': { type: 'string' },
  'fit-truth-steps': { type: 'string' },
  'fit-name': { type: 'string' },
  ...SIMULATE_OPTIONS,
  ...SAMPLES_OPTIONS,
  ...OVERWRITE_OPTIONS,
  ...JOBS_OPTIONS,
} as const;
type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

/** What the command line asks for, read and checked. */
interface ImportFlags {
  files: string[];
  spec: MeasureSpec;
  format: FormatId | 'auto';
  batch: number;
  /** Threads: this one, and jobs − 1 workers making behavior discovery's features. */
  jobs: number;
  fit: FitOptions;
  simulate?: SimulateOptions;
}

/** The flags as an import, or every problem with them (each names its flag or file). */
async function readFlags(v: Values, positionals: readonly string[]): Promise<{ flags: ImportFlags } | { problems: string[] }> {
  const bad: string[] = [];
  const format = v.format ?? 'auto';
  if (format !== 'auto' && !FORMATS.includes(format as FormatId)) bad.push(`--format: expected one of ${FORMATS.join(', ')}, got ${format}`);
  if (!positionals.length) bad.push('no log files given');
  if (!v.out && !v['fit-task'] && !v['samples-out']) bad.push('--out (or --fit-task, --samples-out) is required');
  let fit: FitOptions = {};
  try {
    fit = fitFlags(v);
  } catch (e) {
    bad.push(errorText(e));
  }
  const eps = parseDecimal(v.eps) ?? NaN;
  if (!(eps >= 0 && eps < 1)) bad.push(`--eps: expected a number in [0, 1), got ${v.eps}`);
  const batch = parseWholeNumber(v['openclaw-batch']) ?? NaN;
  if (!(batch >= 1)) bad.push(`--openclaw-batch: expected a positive integer, got ${v['openclaw-batch']}`);
  const jobs = jobsFlag(v.jobs, bad);
  let states, behaviors, gate: string | undefined, files: string[] = [];
  const reward = rewardFlags(v, bad);
  const simulate = simulateFlags(v, bad);
  try {
    states = parseStatesSpec(v.states ? readJsonFile(v.states, '--states') : DISCOVER_STATES);
    behaviors = parseBehaviorRuleSet(v.behaviors ? readJsonFile(v.behaviors, '--behaviors') : DISCOVER_BEHAVIORS);
    if (format === 'auto' || FORMATS.includes(format as FormatId)) files = await listedFiles(positionals, format as FormatId | 'auto');
    if (v.gate) gate = readGateFile(v.gate);
    bad.push(...checkOutputs(namedOutputs(v), { files }, v.overwrite === true).problems);
  } catch (e) {
    if (e instanceof ImportError) throw e; // nothing to read in a folder: exit 1, not a usage error
    bad.push(errorText(e));
  }
  if (bad.length) return { problems: bad };
  return { flags: { files, spec: { states: states!, behaviors: behaviors!, eps, gate, reward }, format: format as FormatId | 'auto', batch, jobs, fit, simulate } };
}

/** The files of the arguments; a folder's log files it does not read are said on stderr, with why. */
async function listedFiles(positionals: readonly string[], format: FormatId | 'auto'): Promise<string[]> {
  const listed = await importPaths(positionals, format);
  for (const line of listed.notRead) console.error(line);
  if (listed.otherFiles) console.error(`${listed.otherFiles} other file${listed.otherFiles === 1 ? '' : 's'} in the folder${positionals.length === 1 ? '' : 's'} not read (not .jsonl or .parquet)`);
  return listed.files;
}

/** The import's issues (the first 50) and one summary line, on stderr. */
function report(r: MeasureResult, out: string | undefined): void {
  for (const i of r.issues.slice(0, 50)) console.error(`${i.file}${i.line ? `:${i.line}` : ''}: ${i.message}`);
  if (r.issuesTotal > 50) console.error(`… ${r.issuesTotal - 50} more issues`);
  const entropy = r.tokenEntropy === 'logprob' ? 'from log-probs' : r.tokenEntropy === 'mixed' ? 'from log-probs where present (support/token_entropy), empirical for all' : 'empirical only (no log-probs in the log: support/token_entropy_empirical, distinct-n)';
  console.error(
    `${r.format}: ${r.samples} samples in ${r.frames.length} steps, states [${r.states.join(', ')}], behaviors [${r.behaviors.join(', ')}], ` +
      `${r.unclassified} unclassified, reward: ${r.reward}, token entropy: ${entropy}; ${r.issuesTotal} issues${out ? ` → ${out}` : ''}`,
  );
  // what a person reads for each discovered name (the list above holds the metric keys)
  for (const line of newNameLines(r, r.titles, new Set())) console.error(`  ${line.slice(4)}`);
}

/**
 * `npm run import` on the words after the script name (src/cli/import.ts runs it as a process): the
 * exit code, its messages on stderr; an error it throws ends the process with exit 1.
 */
export async function importMain(argv: readonly string[]): Promise<number> {
  const args = parseCommandLine(OPTIONS, USAGE, argv);
  if ('exit' in args) return args.exit;
  const v = args.values;
  let read;
  try {
    read = await readFlags(v, args.positionals);
  } catch (e) {
    if (!(e instanceof ImportError)) throw e;
    console.error(e.message);
    return 1;
  }
  if ('problems' in read) {
    console.error(`${read.problems.join('\n')}\n${USAGE}`);
    return EXIT_USAGE;
  }
  const { files, spec, format, batch, jobs, fit, simulate } = read.flags;
  let last = 0;
  const features = jobs > 1 ? new ImportJobs(jobs) : undefined;
  try {
    const samples = v['samples-out'] ? new SamplesFile(v['samples-out'], samplesRoot(args.positionals)) : undefined;
    const r = await measureLogs(files.map(fileSource), spec, {
      format,
      openclawBatch: batch,
      parquet: openParquet,
      regex: nodeRegexEngine(),
      features,
      onProgress: (p) => {
        const now = Date.now();
        if (now - last < 500 && p.file) return;
        last = now;
        process.stderr.write(`\r${basename(p.file || 'done')}: ${(p.bytesDone / 1e6).toFixed(1)}/${(p.bytesTotal / 1e6).toFixed(1)} MB, ${p.samples} samples, ${p.issues} issues   `);
      },
    }, undefined, samples);
    process.stderr.write('\n');
    report(r, v.out);
    if (v.out) writeTextFile(v.out, r.frames.map(frameLine).join('\n') + (r.frames.length ? '\n' : ''));
    const fitted = v['fit-task'] && r.samples ? writeFit(r, fit, v['fit-task']) : undefined;
    if (simulate && fitted) await simulateFit(r, fitted, spec.gate, simulate);
    return r.samples ? 0 : 1;
  } catch (e) {
    if (e instanceof ImportError) {
      console.error(e.message);
      return 1;
    }
    throw e;
  } finally {
    await features?.close();
  }
}
