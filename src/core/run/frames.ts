/**
 * Metric frames and their coalescing. Pure (no DOM): the lab worker uses it to stream at most
 * ~30 batches per second to the UI, and the UI can use it to coalesce renders. Frames are never
 * dropped — plots need every step — they are delivered in batches.
 */
import type { MetricsFrame, SampleTrace } from '../metrics';
import type { LabListener, LabStatus } from './types';

/** A step's frame as a session streams it: its step counted from the run's origin, its traces sent apart. */
export function streamed(frame: MetricsFrame, origin: number): MetricsFrame {
  const { trace: _trace, ...rest } = frame;
  return { ...rest, step: frame.step + origin, trace: [] };
}

/** A step as a session queues it for its listener: the streamed frame and that step's sample traces. */
export interface StreamedStep {
  frame: MetricsFrame;
  traces: SampleTrace[];
}

/** Hand a batch of queued steps to the listener: the frames, and each frame's traces beside it. */
export function deliver(listener: LabListener, runId: number, batch: readonly StreamedStep[]): void {
  listener.frames(
    runId,
    batch.map((b) => b.frame),
    batch.map((b) => b.traces),
  );
}

/** The base before SFT and RL as a step-0 frame (behavior metrics only); null when the status has none (a fork). */
export function baseFrameOf(s: LabStatus): MetricsFrame | null {
  return s.baseScalars ? { step: 0, version: 0, scalars: s.baseScalars, series: {}, ratioEdges: [], perf: {}, changes: {}, trace: [] } : null;
}

/** The frames up to `step` (what a restarted or resumed run keeps of the ones shown). */
export function framesUpTo(frames: readonly MetricsFrame[], step: number): MetricsFrame[] {
  return frames.filter((f) => f.step <= step);
}

/**
 * One measurement of one training step, keyed by the metric names of ../measure/names.ts
 * ("support/token_entropy", "support/behavior_entropy/<state>", ...) plus `step`.
 */
export type MetricFrame = Record<string, number>;

export interface CoalescerOptions {
  /** Upper bound on batches emitted per second (default 30). */
  maxPerSecond?: number;
  /** Clock in ms (default performance.now). */
  now?: () => number;
  /** Timer (default setTimeout); returns a cancel function. */
  schedule?: (fn: () => void, ms: number) => () => void;
}

export interface Coalescer<F = MetricFrame> {
  /** Queue a frame; emits now if the last batch is old enough, otherwise at the next slot. */
  push(frame: F): void;
  /** Emit the queued frames now (e.g. on pause or at the end of a run). */
  flush(): void;
  /** Cancel the pending timer and forget queued frames. */
  dispose(): void;
  /** Number of frames queued and not yet emitted. */
  readonly pending: number;
}

const defaultSchedule = (fn: () => void, ms: number): (() => void) => {
  const id = setTimeout(fn, ms);
  return () => clearTimeout(id);
};

export function createCoalescer<F = MetricFrame>(
  emit: (frames: F[]) => void,
  opts: CoalescerOptions = {},
): Coalescer<F> {
  const maxPerSecond = opts.maxPerSecond ?? 30;
  if (!(maxPerSecond > 0)) throw new RangeError(`maxPerSecond must be > 0, got ${maxPerSecond}`);
  const interval = 1000 / maxPerSecond;
  const now = opts.now ?? (() => performance.now());
  const schedule = opts.schedule ?? defaultSchedule;
  let queue: F[] = [];
  let lastEmit = -Infinity;
  let cancel: (() => void) | null = null;

  const fire = (): void => {
    cancel?.();
    cancel = null;
    if (queue.length === 0) return;
    const batch = queue;
    queue = [];
    lastEmit = now();
    emit(batch);
  };

  return {
    push(frame) {
      queue.push(frame);
      if (cancel) return;
      const wait = lastEmit + interval - now();
      if (wait <= 0) fire();
      else cancel = schedule(fire, wait);
    },
    flush: fire,
    dispose() {
      cancel?.();
      cancel = null;
      queue = [];
    },
    get pending() {
      return queue.length;
    },
  };
}

/** CSV of frames: `step` first, then every other key sorted; missing values are empty cells. */
export function framesToCsv(frames: readonly MetricFrame[]): string {
  const keys = new Set<string>();
  for (const f of frames) for (const k of Object.keys(f)) keys.add(k);
  keys.delete('step');
  const cols = ['step', ...[...keys].sort()];
  const quote = (s: string): string => (/[",\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);
  const lines = [cols.map(quote).join(',')];
  for (const f of frames) {
    lines.push(cols.map((c) => (f[c] === undefined ? '' : String(f[c]))).join(','));
  }
  return lines.join('\n') + '\n';
}
