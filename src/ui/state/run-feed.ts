/**
 * The frames and traces of the run the page shows, from its worker's stream: the run's history
 * (history.ts) starting from the frames a restarted run keeps, published to the views paced while
 * the run plays (redraw-pacer.ts: at most one redraw per animation frame, spaced by what the last
 * one cost, so chart work stays bounded on long runs and a click is handled promptly) and at once
 * when it is idle; the latest step's traces, the traced samples of every recent step (each step of a
 * batch brings its own) and their gate fields.
 */
import type { MetricsFrame, SampleTrace } from '../../core/metrics';
import { TRACED_SAMPLES_MAX, keepTraced, type TracedStep } from '../gates/traced';
import { FrameHistory } from './history';
import { RedrawPacer, browserClock } from './redraw-pacer';
import type { RunView } from './run-view';

export class RunFeed {
  #history = new FrameHistory();
  #runId = -1;
  /** The latest step's traces, published with the frames (views pair them with the latest frame). */
  #latest: SampleTrace[] = [];
  /** The traces the views show now. */
  #shown: SampleTrace[] = [];
  #traced: TracedStep[] = [];
  /** The traced samples of the latest TRACED_SAMPLES_MAX steps (the export, the rollout viewer of the lab's run). */
  #samples: TracedStep<SampleTrace>[] = [];
  #pacer = new RedrawPacer(() => this.#publish(), browserClock());

  #publish(): void {
    this.#shown = this.#latest;
    this.view.draw({ frames: this.#history.drawn().slice(), allFrames: this.#history.all().slice(), framesRun: this.#runId, traces: this.#latest });
  }

  constructor(private readonly view: Pick<RunView, 'set' | 'draw'>) {}

  /** The run the frames belong to (-1: none yet). */
  get runId(): number {
    return this.#runId;
  }
  get traces(): SampleTrace[] {
    return this.#shown;
  }
  /** Every frame of the run, in step order (do not mutate). */
  all(): readonly MetricsFrame[] {
    return this.#history.all();
  }

  /** Start over for run `id` (-1: none yet) from the frames it keeps (and their steps' traced samples). */
  startOver(id: number, kept: readonly MetricsFrame[]): void {
    this.#runId = id;
    this.#history.reset(kept);
    this.#latest = [];
    this.#pacer.request();
    this.#shown = [];
    // the traced samples of the frames it keeps stay (an export after a fork or a recovery has them)
    const to = kept.length ? kept[kept.length - 1].step : -Infinity;
    this.#traced = this.#traced.filter((t) => t.step <= to);
    this.#samples = this.#samples.filter((t) => t.step <= to);
    this.view.set({ traces: [], traced: this.#traced, tracedSamples: this.#samples });
  }

  /**
   * A batch of the run's frames and each one's traces (`traces[i]`: frames[i]'s), shown paced while
   * it plays, at once when idle; returns the batch's last step.
   */
  push(frames: MetricsFrame[], traces: SampleTrace[][], playing: boolean): number {
    this.#history.push(frames);
    this.#latest = traces[frames.length - 1] ?? [];
    if (playing) this.#pacer.request();
    else this.#pacer.flush();
    let traced = false;
    frames.forEach((f, i) => {
      const t = traces[i] ?? [];
      if (!t.length) return;
      traced = true;
      this.#traced = keepTraced(this.#traced, f.step, t.map((x) => x.fields));
      this.#samples = keepTraced(this.#samples, f.step, t, TRACED_SAMPLES_MAX);
    });
    if (traced) this.view.set({ traced: this.#traced, tracedSamples: this.#samples });
    return frames[frames.length - 1]?.step ?? 0;
  }

  /** Show what is kept now, synchronously (the run was left: its frames go in the same update as its counter). */
  showNow(): void {
    this.#publish();
  }

  /** The run went idle: the views and exports show every frame now, not after the redraw gap. */
  flush(): void {
    this.#pacer.flush();
  }

  /** The traces of the latest step kept across a restart (the worker's new run has none yet). */
  showTraces(traces: SampleTrace[]): void {
    this.#latest = traces;
    this.#shown = traces;
    this.view.set({ traces });
  }
}
