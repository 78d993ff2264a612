/**
 * What the user chose (rune state): the config being edited, lesson, selected views, backend,
 * presenter mode. It is the URL state: `query` encodes it, `loadUrl` decodes it.
 */
import type { BackendPreference } from '../../../workers/lab.api';
import { fixesRun, withField, type Config, type ConfigKey } from '../../core/config';
import type { Lessons } from './lessons';
import { hiddenKeys } from './presenter';
import { decodeUrl, defaultUrlState, describeErrors, encodeUrl, lessonBase, opensFirstLesson, trainsLessonTask, type Presenter, type UrlState } from './url';
import { browserSpecLinks, type SpecLinks } from './task-links';
import { DEFAULT_VIEWS, VIEW_IDS, type ViewId } from './views';

/** Lesson settings that stay visible in presenter mode (they frame the lesson, they are not the question). */
const FRAMING: readonly ConfigKey[] = ['task', 'method', 'steps'];

export class LabSettings {
  config = $state<Config>(defaultUrlState().config);
  lesson = $state<string | null>(null);
  views = $state<ViewId[]>([...DEFAULT_VIEWS]);
  /** State shown by the views ('mean' = all states). */
  viewState = $state('mean');
  backend = $state<BackendPreference>('auto');
  pretrain = $state<number | null>(null);
  presenter = $state<Presenter>({ on: false, hide: [], pauseAt: null });
  projector = $state(false);
  /** Problems found in the URL, one line each (bad fields fell back to their defaults). */
  urlMessages = $state<string[]>([]);

  /** Where a custom task too long for a link is kept (this browser's storage). */
  specLinks: SpecLinks = browserSpecLinks();

  /** The lessons (public/presets), once fetched; until then `loaded` is false. */
  lessons = $state.raw<Lessons>(new Map());
  loaded = $state(false);

  /**
   * Decode the URL against the lessons (bad fields are reported and fall back to defaults). A bare
   * URL (a newcomer's first visit) opens on the first lesson instead of free play, unless the page
   * was `served` by `npm run watch --port` (url.ts opensFirstLesson).
   */
  loadUrl(search: string, lessons: Lessons, problems: string[] = [], served = false): void {
    this.lessons = lessons;
    const { state, errors } = decodeUrl(search, lessons, this.specLinks);
    this.#load(state);
    this.urlMessages = [...describeErrors(errors, state.config), ...problems];
    const first = [...lessons.keys()].sort()[0];
    if (opensFirstLesson(search, served) && first !== undefined) this.chooseLesson(first);
    this.loaded = true;
  }

  #load(s: UrlState): void {
    this.config = s.config;
    this.lesson = s.lesson;
    this.views = s.views;
    this.viewState = s.viewState;
    this.backend = s.backend;
    this.pretrain = s.pretrain;
    this.presenter = s.presenter;
    this.projector = s.projector;
  }

  get state(): UrlState {
    return { config: this.config, lesson: this.lesson, views: this.views, viewState: this.viewState, backend: this.backend, pretrain: this.pretrain, presenter: this.presenter, projector: this.projector };
  }

  get query(): string {
    return encodeUrl(this.state, this.lessons, this.specLinks);
  }

  /**
   * Set one field whose value was checked where it was entered (the control's checkField): only the
   * rules across fields are checked here (withField). True when the change needs a new run.
   */
  setField<K extends ConfigKey>(key: K, value: Config[K]): boolean {
    this.config = withField(this.config, key, value);
    if (key === 'task' || key === 'taskSpec') {
      this.viewState = 'mean'; // the old task's states do not exist in the new one
      // another task is not the open lesson: its title and text would describe what is not running
      if (this.lesson !== null && !trainsLessonTask(this.lessons.get(this.lesson)?.config, this.config)) this.lesson = null;
    }
    return fixesRun(key);
  }

  /** Start from a lesson's settings (defaults ⊕ lesson); presenter mode hides what it changes. */
  chooseLesson(id: string | null): void {
    const lesson = id === null ? undefined : this.lessons.get(id);
    this.lesson = lesson ? id : null;
    this.config = lessonBase(lesson?.config);
    this.viewState = lesson?.state ?? 'mean'; // the state the lesson talks about
    const keys = Object.keys(lesson?.config ?? {}) as ConfigKey[];
    this.presenter = { ...this.presenter, hide: keys.filter((k) => !FRAMING.includes(k)) };
  }

  toggleView(id: ViewId, on: boolean): void {
    this.views = VIEW_IDS.filter((v) => (v === id ? on : this.views.includes(v)));
  }

  setPresenter(patch: Partial<Presenter>): void {
    this.presenter = { ...this.presenter, ...patch };
  }

  isHidden(key: ConfigKey): boolean {
    return this.presenter.on && this.presenter.hide.includes(key);
  }

  /** Settings whose values are hidden at `step` (presenter mode, until its checkpoint). */
  hiddenAt(step: number): readonly ConfigKey[] {
    return hiddenKeys(this.presenter, step);
  }

  /** The settings differ from the chosen lesson's (the "restore lesson settings" action applies). */
  get lessonEdited(): boolean {
    const lesson = this.lesson === null ? undefined : this.lessons.get(this.lesson);
    if (!lesson) return false;
    const base = lessonBase(lesson.config);
    return (Object.keys(base) as ConfigKey[]).some((k) => base[k] !== this.config[k]);
  }

  dismissUrlMessages(): void {
    this.urlMessages = [];
  }
}
