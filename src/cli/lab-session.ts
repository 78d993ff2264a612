// The CLI's lab run on the core's run session (src/core/run/session.ts), the same state machine the
// lab worker drives: steps (every frame written as one JSON line), an optional fork at a step (the
// run and its fork continue from the same state, the fork with changed settings: the lab's Compare),
// and a snapshot to continue from exactly (--snapshot / --resume).
import { appendTextFile, jsonText } from './files';
import { makeConfig, type Config } from '../core/config';
import { nonFinite, type MetricsFrame, type SampleTrace } from '../core/metrics';
import { eagerClock } from '../core/run/clock';
import type { SessionDeps } from '../core/run/deps';
import { RunSession } from '../core/run/session';
import type { LabSnapshot, LabStatus } from '../core/run/types';
import { createCliEngine, loadBase, type BaseOptions, type EngineKind } from './engine-setup';

export interface CliLabRun {
  engine: EngineKind;
  config: Config;
  base: BaseOptions;
  /** Continue this snapshot (its settings, seed and weights) instead of starting at step 0. */
  resume?: LabSnapshot;
  /** Live settings for the resumed run's next step. */
  patch?: Partial<Config>;
  /** Pause at this step instead of running to the end (a snapshot then continues it). */
  stopAt?: number;
  out?: string;
  trace: boolean;
  /** Fork at `at`: a second run from the same state with `patch`, written to `out`. */
  fork?: { at: number; patch: Partial<Config>; out: string };
  log(message: string): void;
  progress?(step: number, total: number): void;
}

/** One session's output: a JSON line per frame, the last frame, the first non-finite one. */
export interface Written {
  session: RunSession;
  last: MetricsFrame | null;
  /** The first non-finite metric (name = value) and its step. */
  nonFinite: { metric: string; step: number } | null;
}

function writer(out: string | undefined, trace: boolean, onFrame?: (f: MetricsFrame) => void) {
  const w: Omit<Written, 'session'> = { last: null, nonFinite: null };
  const frames = (_run: number, fs: MetricsFrame[], traces: SampleTrace[][]) => {
    for (const [i, f] of fs.entries()) {
      w.last = f;
      const line = { step: f.step, version: f.version, ...f.scalars, ...f.perf, series: f.series, ...(Object.keys(f.changes).length ? { changes: f.changes } : {}), ...(trace ? { trace: traces[i] ?? [] } : {}) };
      if (out) appendTextFile(out, jsonText(line) + '\n');
      const bad = nonFinite(f);
      if (bad && !w.nonFinite) w.nonFinite = { metric: bad, step: f.step };
      onFrame?.(f);
    }
  };
  return { w, listener: { frames, status: (_s: LabStatus) => undefined } };
}

function checked(s: LabStatus, what: string): LabStatus {
  if (s.phase === 'error') throw new Error(`${what}: ${s.message}`);
  return s;
}

/** Run it to `config.steps` or `stopAt` (or to a non-finite stop); returns the run's and the fork's output. */
export async function runLab(o: CliLabRun): Promise<{ run: Written; fork: Written | null }> {
  const deps: SessionDeps = {
    createEngine: () => createCliEngine(o.engine, o.config),
    loadBase: async (engine, config) => {
      const source = await loadBase(engine, o.engine, config, o.base);
      return { weights: await engine.getWeights(), source };
    },
    clock: eagerClock,
    coalescer: { maxPerSecond: Infinity }, // every frame written as soon as it is taken (progress, a kill mid-run)
  };
  const total = () => session.status().config.steps;
  const main = writer(o.out, o.trace, (f) => o.progress?.(f.step, total()));
  const session = new RunSession(deps, main.listener, o.config);
  const resume = o.resume && { snapshot: o.resume, step: o.resume.step, timeline: [] };
  const st = checked(await session.init(undefined, undefined, resume), 'the run failed to start');
  o.log(`engine: ${st.backend} (${st.backendNote})`);
  o.log(o.resume ? `resumed at step ${st.step} from a snapshot (${st.baseSource})` : st.baseSource);
  if (o.patch && Object.keys(o.patch).length) {
    const refused = await session.setConfig(o.patch);
    if (refused) throw new Error(`--set on a resumed run: ${refused}`);
  }
  const run: Written = Object.assign(main.w, { session });
  const ahead = (s: RunSession, to: number) => s.step(Math.max(0, to - s.status().step));
  let fork: Written | null = null;
  if (o.fork) {
    if (o.fork.at < session.status().step) throw new Error(`--fork-at ${o.fork.at}: the run is already at step ${session.status().step}`);
    checked(await ahead(session, o.fork.at), 'the run stopped');
    if (!run.nonFinite && session.status().step === o.fork.at) {
      const point = await session.forkPoint();
      // the run restarts at the fork point too, so that both continue from the same state (Compare)
      checked(await session.refork(point), 'restart at the fork point');
      const f = writer(o.fork.out, o.trace);
      const child = new RunSession(deps, f.listener, makeConfig({ ...point.config, ...o.fork.patch }));
      checked(await child.init(point), 'the fork failed to start');
      fork = Object.assign(f.w, { session: child });
    }
  }
  const end = (s: RunSession) => Math.min(s.status().config.steps, o.stopAt ?? Infinity);
  checked(await ahead(session, end(session)), 'the run stopped');
  if (fork) checked(await ahead(fork.session, end(fork.session)), 'the fork stopped');
  return { run, fork };
}
