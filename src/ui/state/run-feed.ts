/**
 * The frames and traces of the run the page shows, from its worker's stream: the run's history
 * (history.ts) starting from the frames a restarted run keeps, published to the views paced while
 * the run plays (redraw-pacer.ts: at most one redraw per animation frame, spaced by what the last
 * one cost, so chart work stays bounded on long runs and a click is handled promptly) and at once
 * when it is idle; the latest batch's traces and the gate fields of recent steps' traced samples.
 */
import type { MetricsFrame, SampleTrace } from '../../core/metrics';
import { keepTraced, type TracedStep } from '../gates/traced';
import { FrameHistory } from './history';
import { RedrawPacer, browserClock } from './redraw-pacer';
import type { RunView } from './run-view';

export class RunFeed {
  #history = new FrameHistory();
  #runId = -1;
  /** The latest batch's traces, published with the frames (views pair them with the latest frame). */
  #latest: SampleTrace[] = [];
  /** The traces the views show now. */
  #shown: SampleTrace[] = [];
  #traced: TracedStep[] = [];
  /** The traced samples themselves of the same steps (the rollout viewer of the lab's run). */
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

  /** Start over for run `id` (-1: none yet) from the frames it keeps. */
  startOver(id: number, kept: readonly MetricsFrame[]): void {
    this.#runId = id;
    this.#history.reset(kept);
    this.#latest = [];
    this.#pacer.request();
    this.#shown = [];
    this.#traced = [];
    this.#samples = [];
    this.view.set({ traces: [], traced: [], tracedSamples: [] });
  }

  /** A batch of the run's frames, shown paced while it plays, at once when idle; returns the batch's last step. */
  push(frames: MetricsFrame[], traces: SampleTrace[], playing: boolean): number {
    this.#history.push(frames);
    this.#latest = traces;
    if (playing) this.#pacer.request();
    else this.#pacer.flush();
    const last = frames[frames.length - 1]?.step ?? 0;
    if (traces.length) {
      this.#traced = keepTraced(this.#traced, last, traces.map((t) => t.fields));
      this.#samples = keepTraced(this.#samples, last, traces);
      this.view.set({ traced: this.#traced, tracedSamples: this.#samples });
    }
    return last;
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
