/**
 * The lab controller (rune state): settings (URL state), the main run A and an optional compare run
 * B forked from A. Every user action is a named mutator here; components only call them.
 */
import { errorText } from '../../core/unknown';
import { fixesRun, withField, type Config, type ConfigKey } from '../../core/config';
import type { MetricsFrame } from '../../core/metrics';
import type { BackendPreference, LabControl, LabControls, LabInit } from '../../../workers/lab.api';
import { taskLabel } from '../../core/tasks/registry';
import { GateDraft } from '../gates/draft.svelte';
import { TaskDraft } from '../tasks/draft.svelte';
import { RunState } from './run.svelte';
import { fetchLessons } from './lessons';
import { configAfter } from '../../core/run/recovery';
import { reloadPlan } from '../../core/run/recovery-plan';
import { actionMessage } from './recovery';
import { LabSettings } from './settings.svelte';
import { decideRestore, loadLabRun, type RestoreDecision, type StoredLabRun } from '../storage/lab-restore';
import { LabRunStore } from '../storage/lab-run-store';
import { forkNote, forksFromStart } from './fork';

export type Target = 'A' | 'B';

export class Lab {
  readonly settings: LabSettings;
  readonly main = new RunState('A');
  compare = $state<RunState | null>(null);
  /** Which run the controls edit while comparing. */
  target = $state<Target>('A');
  /** Config of the compare run as edited (its worker holds the applied one). */
  compareConfig = $state<Config | null>(null);
  speed = $state(0);
  message = $state('');
  /** The stored record run A continues after a reload (its first `frames` frames came from storage). */
  restored = $state.raw<{ id: string; frames: number; step: number; first: MetricsFrame; keepState: boolean } | null>(null);
  /** A stored run with other settings than this page's URL, offered instead of restored. */
  offer = $state.raw<Extract<RestoreDecision, { kind: 'offer' }> | null>(null);
  /** The gate editor's draft (applied to the targeted run like any live setting). */
  readonly gate = new GateDraft(typeof sessionStorage === 'undefined' ? null : sessionStorage);
  /** The task editor's draft and whether it is open (kept in the tab across a reload). */
  readonly taskDraft = new TaskDraft(typeof sessionStorage === 'undefined' ? null : sessionStorage);

  /** The page's query string, decoded once the lessons are in; `served`: the page `npm run watch --port` serves. */
  constructor(
    private readonly search: string,
    private readonly served = false,
  ) {
    this.settings = new LabSettings();
  }

  /** Runs a user action; a failure becomes the lab's message instead of an unhandled rejection. */
  async #guard(fn: () => Promise<void>): Promise<void> {
    try {
      await fn();
    } catch (e) {
      this.message = actionMessage(e);
    }
  }

  /** How a run of `config` starts in a lab worker here (engine preference, base URL, pretraining). */
  initFor(config: Config): Omit<LabInit, 'fork'> {
    return this.#init(config);
  }

  #init(config: Config): Omit<LabInit, 'fork'> {
    return {
      config,
      prefer: this.settings.backend,
      baseUrl: document.baseURI,
      ...(this.settings.pretrain !== null ? { pretrainSteps: this.settings.pretrain } : {}),
    };
  }

  get runs(): RunState[] {
    return this.compare ? [this.main, this.compare] : [this.main];
  }

  get ready(): boolean {
    return this.runs.every((r) => r.ready);
  }

  get playing(): boolean {
    return this.runs.some((r) => r.playing);
  }

  /** Config shown in the controls: the targeted run's. */
  get editing(): Config {
    return this.target === 'B' && this.compareConfig ? this.compareConfig : this.settings.config;
  }

  /** Why the controls cannot change `key` for the targeted run ('' = they can): B keeps A's run-fixing settings. */
  lockedWhy(key: ConfigKey): string {
    if (this.target === 'B' && this.compare && fixesRun(key)) return "run B keeps run A's (fork)";
    // a custom or fitted task replaces the built-in one: the built-in's name is not what trains
    if (key === 'task' && this.editing.taskSpec.trim()) return `not in use: the run trains ${taskLabel(this.editing)} (Task editor)`;
    return '';
  }

  /** Settings hidden from the audience now (presenter mode, until the checkpoint). */
  get hidden(): readonly ConfigKey[] {
    return this.settings.hiddenAt(this.main.step);
  }

  async start(): Promise<void> {
    return this.#guard(async () => {
      const { lessons, problems } = await fetchLessons(document.baseURI);
      this.settings.loadUrl(this.search, lessons, problems, this.served);
      if (this.taskDraft.dropped) this.message = `${this.taskDraft.dropped}.`;
      const decision = decideRestore(await this.#storedRun(), this.settings.config);
      if (decision.kind === 'resume') await this.#resumeStored(decision.run);
      else {
        await this.main.host.start(this.#init(this.settings.config));
        // a lesson's link is a lesson to teach: no offer of some earlier run over it
        if (decision.kind === 'offer' && this.settings.lesson === null) this.offer = decision;
      }
      await this.#applyPresenter();
    });
  }

  /** The lab run stored in this browser (null: none, or storage unavailable: said once). */
  async #storedRun(): Promise<StoredLabRun | null> {
    let store: LabRunStore | null = null;
    try {
      store = await LabRunStore.open();
      return await loadLabRun(store);
    } catch (e) {
      this.message = `The stored run could not be read (${errorText(e)}); starting a new one.`;
      return null;
    } finally {
      store?.close();
    }
  }

  /** Run A picks the stored run up: its frames at once, then its snapshot or a replay (recovery.ts). */
  async #resumeStored(run: StoredLabRun): Promise<void> {
    const cell = run.record.cells[0];
    const last = run.frames[run.frames.length - 1];
    const plan = reloadPlan({ original: this.#init(this.settings.config), snapshot: run.snapshot, step: last.step, timeline: cell.timeline, expect: last });
    this.restored = { id: run.record.id, frames: run.frames.filter((f) => f.step <= plan.keepTo).length, step: plan.keepTo, first: run.frames[0], keepState: run.record.keepWeights };
    await this.main.host.resume(plan, run.frames, run.traces);
  }

  /** The offered stored run instead of this link's (its settings become the page's). */
  async acceptOffer(): Promise<void> {
    const offer = this.offer;
    if (!offer) return;
    return this.#guard(async () => {
      this.offer = null;
      this.closeCompare();
      const now = configAfter(offer.run.record.cells[0].timeline);
      if (now) this.settings.config = now;
      await this.#resumeStored(offer.run);
      await this.#applyPresenter();
      await this.main.host.setSpeed(this.speed);
    });
  }

  dismissOffer(): void {
    this.offer = null;
  }

  /** Decline the restored run: a new run from step 0 (the stored one stays in the Runs panel). */
  async startFresh(): Promise<void> {
    return this.#guard(async () => {
      this.restored = null;
      this.offer = null;
      this.closeCompare();
      let store: LabRunStore | null = null;
      try {
        store = await LabRunStore.open();
        await store.setLabRun(null);
      } catch {
        // nothing stored to forget; the recorder says why storage fails
      } finally {
        store?.close();
      }
      await this.main.host.reset(this.settings.config);
    });
  }

  async toggle(): Promise<void> {
    return this.#guard(async () => {
      // pressed while the engine warms up: it plays once ready (the status line says so; again: cancelled)
      if (!this.ready) {
        this.playQueued = !this.playQueued;
        return;
      }
      this.playQueued = false;
      const playing = this.playing;
      // a finished run stays finished (Reset starts it again); a fork beside it still plays
      const runs = playing ? this.runs : this.runs.filter((r) => r.phase !== 'done');
      await Promise.all(runs.map((r) => (playing ? r.host.pause() : r.host.play())));
    });
  }

  /** Play was pressed before the runs were ready: App plays them when they are (state/status.ts says so meanwhile). */
  playQueued = $state(false);

  /** A control of the run session (workers/lab.api.ts) sent to every run shown, once they are ready. */
  async everyRun<K extends LabControl>(name: K, ...args: Parameters<LabControls[K]>): Promise<void> {
    return this.#guard(async () => {
      if (!this.ready) return;
      await Promise.all(this.runs.map((r) => r.host.control(name, ...args)));
    });
  }

  /** Restart every run with the same seed (B restarts from its fork point). */
  async reset(): Promise<void> {
    return this.#guard(async () => {
      await Promise.all([this.main.host.reset(this.settings.config), this.compare?.host.reset(this.compareConfig ?? undefined)]);
    });
  }

  async reseed(): Promise<void> {
    return this.#guard(async () => {
      this.closeCompare();
      const seed = (this.settings.config.seed + 1 + Math.floor(Math.random() * 1000)) % 2 ** 31;
      this.settings.setField('seed', seed);
      await this.main.host.reseed(seed);
    });
  }

  async setSpeed(stepsPerSecond: number): Promise<void> {
    return this.#guard(async () => {
      this.speed = stepsPerSecond;
      await Promise.all(this.runs.map((r) => r.host.setSpeed(stepsPerSecond)));
    });
  }

  /**
   * A control changed (its value checked there: a typed value from here on): live settings patch the
   * run at its next step (the worker checks the patch once more, its own boundary); run-fixing ones restart it.
   */
  async setField(key: ConfigKey, value: Config[ConfigKey]): Promise<void> {
    return this.#guard(async () => {
      if (this.target === 'B' && this.compare && this.compareConfig) {
        if (fixesRun(key)) {
          this.compare.notice = `run B is a fork of run A: ${key} stays A's (edit run A to change it)`;
          return;
        }
        this.compareConfig = withField(this.compareConfig, key, value);
        await this.compare.patch({ [key]: value });
        return;
      }
      const restart = this.settings.setField(key, value);
      if (restart) {
        this.closeCompare();
        await this.main.host.reset(this.settings.config);
      } else await this.main.patch({ [key]: value });
    });
  }

  /** Apply the gate editor's draft (a live setting change: timeline, URL, chart rules); a bad draft never goes. */
  async applyGate(): Promise<void> {
    if (!this.gate.canApply) return;
    const text = this.gate.toApply;
    await this.setField('gate', text);
    if (this.editing.gate === text) this.gate.settle(text);
  }

  /** Another engine preference: a new worker (the URL keeps the choice). */
  async setBackend(pref: BackendPreference): Promise<void> {
    return this.#guard(async () => {
      this.closeCompare();
      this.settings.backend = pref;
      await this.main.host.restart(this.#init(this.settings.config));
      await this.#applyPresenter();
      await this.main.host.setSpeed(this.speed);
    });
  }

  async chooseLesson(id: string | null): Promise<void> {
    return this.#guard(async () => {
      this.closeCompare();
      this.settings.chooseLesson(id);
      await this.main.host.reset(this.settings.config);
      await this.#applyPresenter();
    });
  }

  /**
   * The page's URL changed under it (Back / Forward to another history entry): its settings, as a
   * new run. The settings change synchronously (the caller reads the entry's lesson right after).
   */
  async followUrl(search: string): Promise<void> {
    return this.#guard(async () => {
      this.closeCompare();
      this.settings.loadUrl(search, this.settings.lessons, [], this.served);
      await this.main.host.reset(this.settings.config);
      await this.#applyPresenter();
    });
  }

  /** Back to the chosen lesson's settings (and the state it talks about), as a new run. */
  async restoreLesson(): Promise<void> {
    if (this.settings.lesson !== null) await this.chooseLesson(this.settings.lesson);
  }

  /** Presenter checkpoint goes to the workers. */
  async presenterChanged(): Promise<void> {
    return this.#guard(async () => {
      await this.#applyPresenter();
    });
  }

  async #applyPresenter(): Promise<void> {
    const p = this.settings.presenter;
    await Promise.all(this.runs.map((r) => r.host.setPauseAt(p.on ? p.pauseAt : null)));
  }

  /**
   * Compare: a second run beside A, same seed, editable settings. Mid-run, B starts from A's weights
   * at the current step and A restarts from the same point, so that both continue from identical
   * state (paired seeds). Before the first step or once A has finished there is nothing left to
   * continue: B is A's seed from step 0 with A's current settings (the same run again, as a
   * paired-seed comparison), A keeps its run as it is, and Play trains B.
   */
  async fork(): Promise<void> {
    return this.#guard(async () => {
      if (!this.ready || this.compare) return;
      await this.main.host.pause();
      const fromStart = forksFromStart(this.main.step, this.settings.config.steps);
      const point = fromStart ? null : await this.main.host.control('forkPoint');
      // Both runs continue from the same state at t: they differ only by B's settings (paired).
      if (point) await this.main.host.refork(point);
      const config = point ? point.config : this.settings.config;
      const b = new RunState('B');
      this.compareConfig = { ...config };
      this.compare = b;
      this.target = 'B';
      if (point) await b.host.start({ ...this.#init(config), fork: point });
      else await b.host.start({ ...this.#init(config), note: forkNote(this.main.step) });
      await b.host.setSpeed(this.speed);
      await this.#applyPresenter();
    });
  }

  closeCompare(): void {
    if (this.compare) void this.#guard(() => this.main.host.refork(null));
    this.compare?.host.dispose();
    this.compare = null;
    this.compareConfig = null;
    this.target = 'A';
  }
}
