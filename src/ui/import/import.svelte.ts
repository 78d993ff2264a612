/**
 * State of the Import panel (rune module): the chosen files, the scan (format, issues, preview
 * samples), the rules being edited, and the measured run. Parsing and measuring happen in the
 * import worker, the live preview's classification too (a rule's regex may need the backtracking
 * engine, which runs only under the worker's budget); here the rules are only compiled, to name a bad one.
 */
import * as Comlink from 'comlink';
import type { FormatId, ImportProgress, MeasureResult, MeasureSpec, ScanResult } from '../../core/import/index';
import type { MetricsFrame } from '../../core/metrics';
import { BehaviorClassifier, NO_TITLES, StateClassifier, describeReward, type LabelTitles, parseBehaviorRuleSet, parseRewardChoice, parseStatesSpec, type BehaviorRuleSet, type RewardChoice, type StatesSpec } from '../../core/import/index';
import { ruleRegexEngine } from '../../io/regex/engine';
import { checkGate } from '../../core/gates/index';
import { startImportWorker, type ImportWorker } from './import-client';
import { errorText } from '../../core/unknown';
import { LiveRun } from './live-run.svelte';
import { LiveStreamReader, openLiveStream } from './live-stream';
import { formatOfNames } from './folder-pick';
import { handleFolder } from '../../io/folder-handle';

export interface PreviewRow {
  file: string;
  line: number;
  step: number;
  state: string;
  behavior: string;
  unclassified: boolean;
  reward: number | null;
  tools: string;
  response: string;
}

/** No rules and no fallback: the behaviors are discovered (a rule added here names its samples first). */
export const DEFAULT_BEHAVIORS = `{
  "rules": [],
  "useLogLabel": true
}`;

export class ImportSession {
  files = $state.raw<File[]>([]);
  format = $state<FormatId | 'auto'>('auto');
  openclawBatch = $state(16);
  eps = $state(0.05);
  statesSpec = $state<StatesSpec>({ kind: 'discover' });
  behaviorsText = $state(DEFAULT_BEHAVIORS);
  /** Which number is the judge's score: a field or fields joined by "+" ('' = the format's own), and a vote threshold. */
  rewardText = $state('');
  rewardThreshold = $state('');
  readonly reward = $derived.by((): { choice: RewardChoice | undefined; error: string } => {
    if (!this.rewardText.trim() && !this.rewardThreshold.trim()) return { choice: undefined, error: '' };
    try {
      return { choice: parseRewardChoice(this.rewardText, this.rewardThreshold), error: '' };
    } catch (e) {
      return { choice: undefined, error: errorText(e) };
    }
  });
  progress = $state.raw<ImportProgress | null>(null);
  busy = $state<'' | 'scan' | 'measure'>('');
  error = $state('');
  scan = $state.raw<ScanResult | null>(null);
  result = $state.raw<MeasureResult | null>(null);
  /** A run followed live (live-run.svelte.ts), shown instead of the measured import while set. */
  live = $state.raw<LiveRun | null>(null);
  /** The live run comes from `npm run watch --port` (followStream), not from this page's folder follow. */
  streamed = $state(false);
  /** The run the views show: the live run's steps so far, else the measured import. */
  readonly run = $derived<MeasureResult | null>(this.live ? this.live.result : this.result);
  /** Gate replayed on the imported samples (rule language text); '' = none. */
  gateText = $state('');
  /** The gate's errors (each with its rule and character), for the editor. */
  readonly gateErrors = $derived(this.gateText.trim() ? checkGate(this.gateText).errors.map((e) => e.message) : []);
  #worker: ImportWorker | null = null;
  /** The scanned samples with their state and behavior under the current rules (refreshPreview). */
  preview = $state.raw<PreviewRow[]>([]);
  /** The titles of the states and behaviors the preview discovered. */
  previewTitles = $state.raw<LabelTitles>(NO_TITLES);
  #previewAsked = 0;
  #errorOfPreview = false;
  #previewScan: ScanResult | null = null;

  /** The behavior rules as typed, or the validation message. */
  readonly behaviors = $derived.by((): { spec: BehaviorRuleSet | null; error: string } => {
    try {
      const spec = parseBehaviorRuleSet(JSON.parse(this.behaviorsText));
      new BehaviorClassifier(spec, ruleRegexEngine(null)); // a regex that cannot compile is named here
      return { spec, error: '' };
    } catch (e) {
      return { spec: null, error: errorText(e) };
    }
  });

  readonly statesError = $derived.by(() => {
    try {
      new StateClassifier(parseStatesSpec(this.statesSpec), ruleRegexEngine(null));
      return '';
    } catch (e) {
      return errorText(e);
    }
  });

  /** Classify the scanned samples in the worker; the page's effect calls it when the scan or the rules change. */
  async refreshPreview(): Promise<void> {
    const b = this.behaviors.spec;
    const scan = this.scan;
    if (!scan || !b || this.statesError) {
      this.preview = [];
      return;
    }
    const asked = ++this.#previewAsked;
    if (this.#previewScan !== scan) this.preview = []; // rows of another scan never show under this one
    this.#previewScan = scan;
    const states = $state.snapshot(this.statesSpec) as StatesSpec;
    try {
      const { labels: cls, titles } = await this.worker.call((api) => api.classify(scan.preview, states, b));
      if (asked !== this.#previewAsked) return; // the rules changed meanwhile
      if (this.#errorOfPreview) this.error = '';
      this.#errorOfPreview = false;
      this.previewTitles = titles;
      this.preview = scan.preview.map((s, i) => ({
        file: s.file,
        line: s.line,
        step: s.step,
        state: cls[i].state,
        behavior: cls[i].behavior,
        unclassified: cls[i].rule === null,
        reward: s.reward,
        tools: s.toolCalls.join(' → '),
        response: s.response.length > 140 ? `${s.response.slice(0, 140)}…` : s.response,
      }));
    } catch (e) {
      if (asked !== this.#previewAsked) return;
      this.error = errorText(e);
      this.#errorOfPreview = true;
    }
  }

  get worker(): ImportWorker {
    return (this.#worker ??= startImportWorker());
  }

  async choose(files: File[]): Promise<void> {
    if (this.live?.phase !== 'following') this.live = null; // a one-shot import after a follow shows the import
    this.files = files;
    this.scan = null;
    this.result = null;
    if (files.length) await this.runScan();
  }

  async runScan(): Promise<void> {
    await this.#run('scan', async (onProgress) => {
      this.scan = await this.worker.call((api) => api.scan(this.files, { format: this.format, openclawBatch: this.openclawBatch }, onProgress));
      if (this.scan.preview.some((s) => s.state !== null) && (this.statesSpec.kind === 'single' || this.statesSpec.kind === 'discover')) this.statesSpec = { kind: 'field', field: 'state' };
    });
  }

  async runMeasure(): Promise<void> {
    const asked = this.measureSpec();
    if ('error' in asked) return;
    await this.#run('measure', async (onProgress) => {
      this.result = await this.worker.call((api) => api.measure(this.files, asked.spec, { format: this.format, openclawBatch: this.openclawBatch }, onProgress));
    });
  }

  async #run(kind: 'scan' | 'measure', f: (onProgress: (p: ImportProgress) => void) => Promise<void>): Promise<void> {
    this.busy = kind;
    this.error = '';
    this.progress = null;
    let pending: ImportProgress | null = null;
    let raf = 0;
    // progress arrives per MB; the bar is redrawn at most once a frame
    const onProgress = Comlink.proxy((p: ImportProgress) => {
      pending = p;
      raf ||= requestAnimationFrame(() => {
        raf = 0;
        this.progress = pending;
      });
    });
    try {
      await f(onProgress);
    } catch (e) {
      this.error = errorText(e);
    } finally {
      this.busy = '';
    }
  }

  /** The measure's rules as typed, or why they cannot be used (the one-shot measure and the follow take the same). */
  measureSpec(): { spec: MeasureSpec } | { error: string } {
    const b = this.behaviors.spec;
    const error = this.behaviors.error || this.statesError || this.reward.error;
    if (!b || error) return { error: error || 'the behavior rules are not valid' };
    const reward = this.reward.choice;
    const gate = this.gateText.trim() && !this.gateErrors.length ? { gate: this.gateText } : {};
    return { spec: { states: $state.snapshot(this.statesSpec) as StatesSpec, behaviors: b, eps: this.eps, ...(reward ? { reward } : {}), ...gate } };
  }

  /**
   * Follow a folder live (any FileSystemDirectoryHandle: a picked folder, the Origin Private File
   * System) in the import worker with the core's follower, its events into a LiveRun shown here;
   * resolves when the follow has ended (stopFollow, or an error, said on the run).
   */
  async followFolder(dir: FileSystemDirectoryHandle): Promise<void> {
    if (this.live?.phase === 'following') return;
    this.error = '';
    const asked = this.measureSpec();
    if ('error' in asked) return void (this.error = `The rules cannot be used yet: ${asked.error}`);
    const format = this.format !== 'auto' ? this.format : formatOfNames((await handleFolder(dir).list()).map((e) => e.path));
    if (!format) return void (this.error = `${dir.name}: no verl step files ({step}.jsonl) or TRL completions (completions_NNNNN.parquet) yet, so its format cannot be told: pick the log format, then follow it again.`);
    const run = new LiveRun({ source: `folder ${dir.name}, followed in this browser`, format, eps: asked.spec.eps, reward: describeReward(asked.spec.reward) });
    this.showLive(run);
    const sink = Comlink.proxy({ frame: (f: MetricsFrame, replaced: boolean) => run.frame(f, replaced), notice: (t: string) => run.notice(t) });
    try {
      await this.worker.call((api) => api.follow(dir, asked.spec, { format, openclawBatch: this.openclawBatch }, sink));
      run.end();
    } catch (e) {
      run.end(errorText(e));
    }
  }

  /**
   * Follow the run `npm run watch --port` streams to this page (live-stream.ts) into a LiveRun shown
   * here, with the gate the watch replays; returns the way to stop listening.
   */
  followStream(url: string): () => void {
    this.streamed = true;
    const reader = new LiveStreamReader(
      (info) => {
        this.format = info.format;
        if (info.gate) this.gateText = info.gate;
        // the watch's behavior rules (none: all discovered): a behavior named in the page goes into a copy of them
        this.behaviorsText = info.behaviors ?? DEFAULT_BEHAVIORS;
        const run = new LiveRun(info);
        this.showLive(run);
        return run;
      },
      (message) => (this.error = message),
    );
    return openLiveStream(url, reader);
  }

  /** End the follow: the follower writes the steps still open (as the CLI's Ctrl-C), then the run is done. */
  async stopFollow(): Promise<void> {
    if (this.live?.phase === 'following') await this.worker.call((api) => api.stopFollow());
  }

  /** Show a live run in the import view (any source: the folder follow, a stream); null: back to the measured import. */
  showLive(run: LiveRun | null): void {
    this.live = run;
  }

  dispose(): void {
    this.#worker?.terminate();
    this.#worker = null;
  }
}
