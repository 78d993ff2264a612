/**
 * A run followed live, as the import view shows it (rune state). Any source feeds it the core's
 * follow events (src/core/import/follow/follow-core.ts FollowEvents): `frame(f, replaced)` for each
 * completed step, `notice(text)` for what happened to the files, then `end()` once the follow is
 * over (its finish() ran) or `end(message)` when it failed. The import worker's folder follow
 * (ImportSession.followFolder) is one source; the stream of `npm run watch --port` is another
 * (live-stream.ts, ImportSession.followStream; docs/watch.md). The alarms are computed here, from the frames, with the core's RunAlarms, so
 * every source rings the same alarms at the same steps as the CLI.
 */
import { RunAlarms, type Alarm } from '../../core/import/follow/alarms';
import type { FollowEvents, MeasureResult } from '../../core/import/index';
import type { MetricsFrame } from '../../core/metrics';
import { liveResult, placeFrame, type LiveRunInfo } from './live-frames';

export type { LiveRunInfo } from './live-frames';

/** Notices held (a follow that runs for days may say a great deal). */
export const NOTICES_KEPT = 200;

/** following: frames may still come; done: the follow ended (finish() ran); failed: it stopped on an error. */
export type LivePhase = 'following' | 'done' | 'failed';

export class LiveRun implements FollowEvents {
  /** The completed steps' frames in step order (a rewritten step's frame replaces the one before). */
  frames = $state.raw<MetricsFrame[]>([]);
  /** Alarms in the order they rang (each with the step it is about). */
  alarms = $state.raw<Alarm[]>([]);
  /** What the source said about the files, in plain words, oldest first (the latest NOTICES_KEPT). */
  notices = $state.raw<string[]>([]);
  /** Notices said in all (more than are kept, in a long follow). */
  noticesTotal = $state(0);
  /** Steps whose frame was replaced (their file was rewritten). */
  replaced = $state.raw<number[]>([]);
  phase = $state<LivePhase>('following');
  /** Why the follow stopped, when it failed. */
  error = $state('');
  /** The steps so far as an import result (for the run views, the gate replay, the task fit). */
  readonly result: MeasureResult;
  readonly info: LiveRunInfo;
  readonly #alarms: RunAlarms;

  constructor(info: LiveRunInfo) {
    this.info = info;
    this.#alarms = new RunAlarms(info.eps);
    this.result = $derived(liveResult(info, this.frames, this.notices, this.noticesTotal));
  }

  frame(f: MetricsFrame, replaced: boolean): void {
    this.frames = placeFrame(this.frames, f);
    if (replaced) this.replaced = [...this.replaced, f.step];
    const rang = this.#alarms.add(f);
    if (rang.length) this.alarms = [...this.alarms, ...rang];
  }

  /** `total`: notices said in all, this one included, when the source kept fewer (a stream joined late). */
  notice(text: string, total?: number): void {
    this.notices = [...this.notices.slice(-(NOTICES_KEPT - 1)), text];
    this.noticesTotal = Math.max(this.noticesTotal + 1, total ?? 0);
  }

  /** The follow is over: with a message, it failed. */
  end(error?: string): void {
    if (this.phase !== 'following') return;
    this.phase = error ? 'failed' : 'done';
    this.error = error ?? '';
  }
}
