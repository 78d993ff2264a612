// npm run lab's work, callable in process (tests); src/cli/lab.ts is the command and its usage.
import { makeConfig, runFixingIn, type Config } from '../core/config';
import { snapshotFromJson, snapshotToJson } from '../core/run/snapshot-file';
import type { LabSnapshot } from '../core/run/types';
import { runLab, type Written } from './lab-session';
import { UsageError, usageOf } from './args';
import { appendTextFile, jsonText, parseFile, readTextFile, writeTextFile } from './files';
import { gateSetting } from './gate-args';
import { presetSettings, settingsOf } from './settings-args';
import { parseLabArgs, type LabArgs as Args } from './lab-args';
import { readTaskFile } from './task-args';
import { EXIT_ERROR, EXIT_NON_FINITE, EXIT_USAGE } from './exit-codes';

/** The exit code of a process that ends with `e`: 2 for a bad command line, else 1. */
export const exitCodeOf = (e: unknown): number => (e instanceof UsageError ? EXIT_USAGE : EXIT_ERROR);

function resolveConfig(a: Args, start: Record<string, unknown> = {}): Config {
  let partial: Record<string, unknown> = { ...start };
  if (a.preset) partial = presetSettings(a.preset);
  if (a.steps !== undefined) partial.steps = a.steps;
  if (a.seed !== undefined) partial.seed = a.seed;
  Object.assign(partial, settingsOf('--set', a.set));
  // --gate-rule rules first (first match wins), then the file's; each rule parsed once (gate-args.ts)
  const gate = gateSetting(a.gateRules, a.gate);
  if (gate !== undefined) partial.gate = gate;
  if (a.taskFile !== undefined) partial.taskSpec = readTaskFile(a.taskFile);
  return makeConfig(partial);
}

function progress(step: number, total: number, rate: number): void {
  const w = 30;
  const done = Math.round((step / total) * w);
  process.stderr.write(`\r[${'#'.repeat(done)}${'.'.repeat(w - done)}] ${step}/${total}  ${rate.toFixed(1)} steps/s `);
}

/** The snapshot in a --resume file; every failure names the file. */
function readSnapshot(file: string): LabSnapshot {
  return parseFile(file, '--resume', readTextFile, (text) => snapshotFromJson(text as string));
}

/** The settings a resumed run changes (those given on the command line that differ from the snapshot's). */
function resumePatch(a: Args, snap: LabSnapshot): Partial<Config> {
  const was = makeConfig({ ...snap.run.config, ...snap.run.pending });
  const now = resolveConfig(a, was);
  const patch = Object.fromEntries(Object.entries(now).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(was[k as keyof Config]))) as Partial<Config>;
  const fixed = runFixingIn(patch);
  if (fixed.length) throw new UsageError(`--resume: ${fixed.join(', ')} fix the run: a resumed run keeps the snapshot's`);
  return patch;
}

/**
 * `npm run lab` on the words after the script name (its usage is the header of lab.ts, which runs it
 * as a process). Throws the error the process prints: a UsageError for a bad command line.
 */
export async function labMain(argv: readonly string[]): Promise<void> {
  const a = parseLabArgs(argv);
  if (a.help) {
    const head = usageOf(new URL('./lab.ts', import.meta.url).href, 40).split('\n');
    console.log(head.slice(0, head.findIndex((l) => !l.startsWith('//'))).join('\n'));
    return;
  }
  const snap = a.resume !== undefined ? readSnapshot(a.resume) : undefined;
  const patch = snap ? resumePatch(a, snap) : {};
  const cfg = snap ? makeConfig({ ...snap.run.config, ...snap.run.pending, ...patch }) : resolveConfig(a);
  const forkPatch = settingsOf('--fork-set', a.forkSet);
  const fixed = runFixingIn(forkPatch);
  if (fixed.length) throw new UsageError(`--fork-set: ${fixed.join(', ')} fix the run: a fork keeps its parent's`);
  const end = Math.min(cfg.steps, a.stopAt ?? Infinity);
  if (a.forkAt !== undefined && a.forkAt >= end) throw new UsageError(`--fork-at ${a.forkAt}: the run ${a.stopAt !== undefined ? 'stops' : 'ends'} at step ${end}`);
  makeConfig({ ...cfg, ...forkPatch });
  // fail before the engine starts when an output cannot be written (truncates it, as the run would)
  if (a.out) writeTextFile(a.out, '');
  if (a.forkOut) writeTextFile(a.forkOut, '', '--fork-out');
  const log = (s: string) => a.quiet || process.stderr.write(s + '\n');
  const t0 = performance.now();
  const tty = !a.quiet && process.stderr.isTTY;
  const { run, fork } = await runLab({
    engine: a.engine, config: cfg, base: { base: a.base, pretrainSteps: a.pretrainSteps, pretrainLr: a.pretrainLr },
    ...(snap ? { resume: snap, patch } : {}), ...(a.stopAt !== undefined ? { stopAt: a.stopAt } : {}), out: a.out, trace: a.trace, log,
    ...(a.forkAt !== undefined && a.forkOut ? { fork: { at: a.forkAt, patch: forkPatch as Partial<Config>, out: a.forkOut } } : {}),
    progress: (step, total) => {
      if (tty && (step % Math.max(1, Math.floor(total / 100)) === 0 || step === total)) progress(step, total, step / ((performance.now() - t0) / 1000));
    },
  });
  if (tty) process.stderr.write('\n');
  const wall = (performance.now() - t0) / 1000;
  for (const w of [run, fork]) {
    if (!w?.nonFinite) continue;
    process.stderr.write(`stopped ${w === fork ? 'the fork ' : ''}at step ${w.nonFinite.step}: non-finite metric ${w.nonFinite.metric} (the frame is in the output)\n`);
    process.exitCode = EXIT_NON_FINITE;
  }
  const summaryOf = (w: Written) => {
    const status = w.session.status();
    const last = w.last;
    const pick = (re: RegExp) => Object.fromEntries(Object.entries(last?.scalars ?? {}).filter(([k]) => re.test(k)));
    return {
      preset: a.preset ?? null,
      engine: status.backend,
      steps: status.config.steps,
      stepsTaken: last?.step ?? status.step,
      stoppedBy: w.nonFinite ? `non-finite ${w.nonFinite.metric} at step ${w.nonFinite.step}` : null,
      wallSeconds: wall,
      stepsPerSecond: (last?.step ?? 0) / wall,
      config: status.config,
      final: pick(/^(support\/(token_entropy|behavior_support|behavior_entropy)|esr\/effective_rate|gap\/clipfrac|train\/loss)/),
    };
  };
  const summary = summaryOf(run);
  if (a.out) appendTextFile(a.out, jsonText({ summary }) + '\n');
  if (fork && a.forkOut) appendTextFile(a.forkOut, jsonText({ summary: { ...summaryOf(fork), forkedAt: a.forkAt } }) + '\n', '--fork-out');
  if (a.snapshot) {
    if (run.nonFinite) log(`--snapshot ${a.snapshot}: not written (the run stopped at a non-finite metric)`);
    else writeTextFile(a.snapshot, snapshotToJson(await run.session.snapshot()), '--snapshot');
  }
  console.log(jsonText(summary.final, 1));
  await run.session.dispose();
  await fork?.session.dispose();
}

