/**
 * State of the Import panel (rune module): the chosen files, the scan (format, issues, preview
 * samples), the rules being edited, and the measured run. Parsing and measuring happen in the
 * import worker; the live preview classifies the scanned samples here with the core's classifiers.
 */
import { errorText } from '../../core/unknown';
import * as Comlink from 'comlink';
import type { FormatId, ImportProgress, MeasureResult, ScanResult } from '../../core/import/index';
import { BehaviorClassifier, StateClassifier, parseBehaviorRuleSet, parseStatesSpec, type BehaviorRuleSet, type StatesSpec } from '../../core/import/index';
import { re2Engine } from '../../io/re2';
import { checkGate } from '../../core/gates/index';
import { startImportWorker, type ImportWorker } from './import-client';

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

export const DEFAULT_BEHAVIORS = `{
  "rules": [
    { "label": "tool-then-answer", "toolsInclude": ["search"] },
    { "label": "short", "maxTokens": 20 }
  ],
  "fallback": "other"
}`;

export class ImportSession {
  files = $state.raw<File[]>([]);
  format = $state<FormatId | 'auto'>('auto');
  openclawBatch = $state(16);
  eps = $state(0.05);
  statesSpec = $state<StatesSpec>({ kind: 'single' });
  behaviorsText = $state(DEFAULT_BEHAVIORS);
  progress = $state.raw<ImportProgress | null>(null);
  busy = $state<'' | 'scan' | 'measure'>('');
  error = $state('');
  scan = $state.raw<ScanResult | null>(null);
  result = $state.raw<MeasureResult | null>(null);
  /** Gate replayed on the imported samples (rule language text); '' = none. */
  gateText = $state('');
  /** The gate's errors (each with its rule and character), for the editor. */
  readonly gateErrors = $derived(this.gateText.trim() ? checkGate(this.gateText).errors.map((e) => e.message) : []);
  #worker: ImportWorker | null = null;

  /** The behavior rules as typed, or the validation message. */
  readonly behaviors = $derived.by((): { spec: BehaviorRuleSet | null; error: string } => {
    try {
      const spec = parseBehaviorRuleSet(JSON.parse(this.behaviorsText));
      new BehaviorClassifier(spec, re2Engine); // a regex the linear-time engine refuses is named here
      return { spec, error: '' };
    } catch (e) {
      return { spec: null, error: errorText(e) };
    }
  });

  readonly statesError = $derived.by(() => {
    try {
      new StateClassifier(parseStatesSpec(this.statesSpec), re2Engine);
      return '';
    } catch (e) {
      return errorText(e);
    }
  });

  /** The scanned samples with their state and behavior under the current rules. */
  readonly preview = $derived.by((): PreviewRow[] => {
    const b = this.behaviors.spec;
    if (!this.scan || !b || this.statesError) return [];
    const sc = new StateClassifier(this.statesSpec, re2Engine);
    const bc = new BehaviorClassifier(b, re2Engine);
    return this.scan.preview.map((s) => {
      const c = bc.classify(s);
      return {
        file: s.file,
        line: s.line,
        step: s.step,
        state: sc.classify(s),
        behavior: c.behavior,
        unclassified: c.rule === null,
        reward: s.reward,
        tools: s.toolCalls.join(' → '),
        response: s.response.length > 140 ? `${s.response.slice(0, 140)}…` : s.response,
      };
    });
  });

  get worker(): ImportWorker {
    return (this.#worker ??= startImportWorker());
  }

  async choose(files: File[]): Promise<void> {
    this.files = files;
    this.scan = null;
    this.result = null;
    if (files.length) await this.runScan();
  }

  async runScan(): Promise<void> {
    await this.#run('scan', async (onProgress) => {
      this.scan = await this.worker.api.scan(this.files, { format: this.format, openclawBatch: this.openclawBatch }, onProgress);
      if (this.scan.preview.some((s) => s.state !== null) && this.statesSpec.kind === 'single') this.statesSpec = { kind: 'field', field: 'state' };
    });
  }

  async runMeasure(): Promise<void> {
    const b = this.behaviors.spec;
    if (!b || this.statesError) return;
    await this.#run('measure', async (onProgress) => {
      this.result = await this.worker.api.measure(this.files, { states: $state.snapshot(this.statesSpec) as StatesSpec, behaviors: b, eps: this.eps, ...(this.gateText.trim() && !this.gateErrors.length ? { gate: this.gateText } : {}) }, { format: this.format, openclawBatch: this.openclawBatch }, onProgress);
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

  dispose(): void {
    this.#worker?.terminate();
    this.#worker = null;
  }
}
