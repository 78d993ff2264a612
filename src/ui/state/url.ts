/**
 * The lab's URL state (pure): config, lesson, selected views and state, backend, presenter settings.
 *
 *   ?v=1&lesson=b-clip-higher&clipHigh=0.3&seed=7&views=ratio,funnel&state=code&present=1&hide=clipHigh&pauseAt=20
 *
 * Only non-defaults are written. Config fields are relative to the lesson's settings when a lesson
 * is named (defaults ⊕ lesson ⊕ URL). The config part is the core's query codec (src/core/config:
 * `configEntries` / `encodeQuery` write it, `configFromParams` reads it over the lesson's settings: a
 * bad field is reported and keeps its lesson/default value). This module only adds the lab's own keys.
 * `v` is the config schema version (CONFIG_VERSION); the lab keys belong to it.
 */
import {
  CONFIG_VERSION, capUnknown, configEntries, configFromParams, defaultConfig, encodeQuery, formatField, isConfigKey, onePerField, parseWholeNumber, queryParams, urlKey,
  type Config, type ConfigKey, type FieldError,
} from '../../core/config';
import type { BackendPreference } from '../../../workers/lab.api';
import { specText, taskLabel, taskOf } from '../../core/tasks/registry';
import { parseTaskSpec } from '../../core/tasks/validate';
import { specFromLink, specLinkValue, type SpecLinks } from './task-links';
import { DEFAULT_VIEWS, VIEW_IDS, type ViewId } from './views';

export interface Presenter {
  /** Presenter mode: the hidden controls are replaced by "predict, then run". */
  on: boolean;
  hide: ConfigKey[];
  /** Pause automatically after this step; null = never. */
  pauseAt: number | null;
}

export interface UrlState {
  config: Config;
  lesson: string | null;
  views: ViewId[];
  /** The task state the views show, or 'mean' (all states). */
  viewState: string;
  backend: BackendPreference;
  /** In-worker pretraining steps when no checkpoint fits; null = the worker's default. */
  pretrain: number | null;
  presenter: Presenter;
  /** Projector mode: larger type, fewer panels. */
  projector: boolean;
}

/** Keys of the URL that are not config fields. */
export const LAB_KEYS = ['lesson', 'views', 'state', 'backend', 'pretrain', 'present', 'hide', 'pauseAt', 'projector'] as const;
const BACKENDS: readonly BackendPreference[] = ['auto', 'webgpu', 'wasm'];

export function defaultUrlState(): UrlState {
  return { config: defaultConfig(), lesson: null, views: [...DEFAULT_VIEWS], viewState: 'mean', backend: 'auto', pretrain: null, presenter: { on: false, hide: [], pauseAt: null }, projector: false };
}

/** The config a lesson starts from: defaults ⊕ the lesson's settings. */
/**
 * Whether a page opens on the first lesson: a bare URL (a newcomer's first visit) does; a page
 * served by `npm run watch --port` does not (it opens on the followed run, and a lesson's text
 * above it would tell the user to press Play on something else).
 */
export function opensFirstLesson(query: string, served: boolean): boolean {
  return !served && [...new URLSearchParams(query).keys()].every((k) => k === 'v');
}

export function lessonBase(lessonConfig: Partial<Config> | null | undefined): Config {
  return { ...defaultConfig(), ...(lessonConfig ?? {}) };
}

/** A task spec's text in canonical form ('' for none; a spec that does not validate as written). */
function canonicalSpec(text: string): string {
  if (!text.trim()) return '';
  const r = parseTaskSpec(text);
  return r.ok ? specText(r.spec) : text;
}

/**
 * Whether `config` still trains the lesson's task. A lesson's title and text talk about its task:
 * a custom or fitted task, or another built-in one, is no longer that lesson (the page leaves it).
 */
export function trainsLessonTask(lessonConfig: Partial<Config> | null | undefined, config: Config): boolean {
  const base = lessonBase(lessonConfig);
  const spec = canonicalSpec(config.taskSpec);
  return spec === canonicalSpec(base.taskSpec) && (spec !== '' || config.task === base.task);
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** What the URL codec needs of a lesson: its settings and the state it opens on. */
export type UrlLessons = ReadonlyMap<string, { config: Partial<Config>; state?: string }>;

/** Encode; `lessons` gives each lesson's settings (fields equal to them are left out). */
export function encodeUrl(s: UrlState, lessons: UrlLessons, specs?: SpecLinks): string {
  const lesson = s.lesson !== null ? lessons.get(s.lesson) : undefined;
  const entries: [string, string][] = [['v', String(CONFIG_VERSION)]];
  if (lesson) entries.push(['lesson', s.lesson!]);
  // a custom task's spec too long for a link is stored and the link names it (task-links.ts)
  entries.push(...configEntries(s.config, lessonBase(lesson?.config)).map(([k, v]): [string, string] => [k, k === urlKey('taskSpec') ? specLinkValue(v, specs) : v]));
  if (!sameList(s.views, DEFAULT_VIEWS)) entries.push(['views', s.views.join(',')]);
  // `state=mean` only where the lesson opens on a state (a link without `state=` opens there)
  if (s.viewState !== 'mean' || (lesson?.state ?? 'mean') !== 'mean') entries.push(['state', s.viewState]);
  if (s.backend !== 'auto') entries.push(['backend', s.backend]);
  if (s.pretrain !== null) entries.push(['pretrain', String(s.pretrain)]);
  if (s.presenter.on) entries.push(['present', '1']);
  if (s.presenter.hide.length) entries.push(['hide', s.presenter.hide.join(',')]);
  if (s.presenter.pauseAt !== null) entries.push(['pauseAt', String(s.presenter.pauseAt)]);
  if (s.projector) entries.push(['projector', '1']);
  return encodeQuery(entries);
}

/** Most in-worker pretraining steps a link may ask for (the shipped bases took 400). */
export const MAX_URL_PRETRAIN = 2000;

function nonNegInt(text: string): number | null {
  const n = parseWholeNumber(text);
  return n !== null && n <= 1e7 ? n : null;
}

/** Decode leniently: every problem is reported, and only the bad part falls back to its default. */
export function decodeUrl(query: string, lessons: UrlLessons, specs?: SpecLinks): { state: UrlState; errors: FieldError[] } {
  // Each key once (its last value), a size cap; notes on keys given several values.
  const { params, errors: paramNotes } = queryParams(query);
  const state = defaultUrlState();
  const errors: FieldError[] = [];
  const configParams = new Map<string, string>();
  for (const [k, text] of params) {
    if (!(LAB_KEYS as readonly string[]).includes(k)) {
      const spec = k === urlKey('taskSpec') ? specFromLink(text, specs) : { text };
      if ('error' in spec) errors.push({ field: 'taskSpec', message: spec.error });
      else configParams.set(k, spec.text);
      continue;
    }
    if (k === 'lesson') {
      if (lessons.has(text)) state.lesson = text;
      else errors.push({ field: 'lesson', message: `unknown lesson ${JSON.stringify(text)}` });
    } else if (k === 'views') {
      const ids = text === '' ? [] : text.split(',');
      const bad = ids.filter((id) => !(VIEW_IDS as readonly string[]).includes(id));
      const good = VIEW_IDS.filter((id) => ids.includes(id));
      // nothing usable (e.g. views=zzz) keeps the default views rather than an empty page
      const keep = bad.length > 0 && good.length === 0;
      if (bad.length) errors.push({ field: 'views', message: `unknown view ${bad.map((b) => JSON.stringify(b)).join(', ')} (views: ${VIEW_IDS.join(', ')})${keep ? '; showing the default views' : ''}` });
      state.views = keep ? [...DEFAULT_VIEWS] : good;
    } else if (k === 'state') {
      state.viewState = text; // checked against the task's states once the config is known
    } else if (k === 'backend') {
      if ((BACKENDS as readonly string[]).includes(text)) state.backend = text as BackendPreference;
      else errors.push({ field: 'backend', message: `expected one of ${BACKENDS.join(' | ')}, got ${JSON.stringify(text)}` });
    } else if (k === 'pretrain') {
      const n = nonNegInt(text);
      if (n !== null && n <= MAX_URL_PRETRAIN) state.pretrain = n;
      else errors.push({ field: 'pretrain', message: `expected a whole number of steps up to ${MAX_URL_PRETRAIN}, got ${JSON.stringify(text.slice(0, 20))}` });
    } else if (k === 'present') {
      if (['1', 'true'].includes(text)) state.presenter.on = true;
      else if (!['0', 'false'].includes(text)) errors.push({ field: 'present', message: `expected 1 or 0, got ${JSON.stringify(text)} (presenter mode stays off)` });
    } else if (k === 'hide') {
      const keys = text === '' ? [] : text.split(',');
      const bad = keys.filter((x) => !isConfigKey(x));
      if (bad.length) errors.push({ field: 'hide', message: `unknown setting ${bad.slice(0, 10).map((b) => JSON.stringify(b)).join(', ')}${bad.length > 10 ? ` and ${bad.length - 10} more` : ''}` });
      state.presenter.hide = [...new Set(keys.filter(isConfigKey))];
    } else if (k === 'projector') {
      if (['1', 'true'].includes(text)) state.projector = true;
      else if (!['0', 'false'].includes(text)) errors.push({ field: 'projector', message: `expected 1 or 0, got ${JSON.stringify(text)} (projector mode stays off)` });
    } else if (k === 'pauseAt') {
      const n = nonNegInt(text);
      if (n !== null && n > 0) state.presenter.pauseAt = n;
      else errors.push({ field: 'pauseAt', message: `expected a step ≥ 1, got ${JSON.stringify(text.slice(0, 20))}` });
    }
  }
  // The config over the lesson's settings: a bad URL value keeps the lesson's (cross-field clashes too).
  const parsed = configFromParams(configParams, lessonBase(state.lesson !== null ? lessons.get(state.lesson)?.config : null));
  state.config = parsed.config;
  // Name the value the URL held ("banana"), not only what the parser made of it.
  const withValue = (e: FieldError): FieldError => {
    const text = JSON.stringify(params.get(e.field));
    return isConfigKey(e.field) && params.has(e.field) && !e.message.includes(text) ? { ...e, message: `${text}: ${e.message}` } : e;
  };
  const reported = [...errors, ...parsed.errors.map(withValue), ...paramNotes];
  const states = taskOf(state.config).states.map((st) => st.name);
  // a lesson link without `state=` opens on the state the lesson talks about (when its task has it)
  const lessonState = state.lesson !== null ? lessons.get(state.lesson)?.state : undefined;
  if (!params.has('state') && lessonState && states.includes(lessonState)) state.viewState = lessonState;
  if (state.viewState !== 'mean' && !states.includes(state.viewState)) {
    reported.push({ field: 'state', message: `${JSON.stringify(state.viewState.slice(0, 40))} is not a state of ${taskLabel(state.config)} (${states.join(', ')})` });
    state.viewState = 'mean';
  }
  return { state, errors: capUnknown(onePerField(reported)) };
}

/** What a setting's value is called in the banner; an empty text says what empty means. */
function usedText(key: ConfigKey, config: Config): string {
  const text = formatField(key, config[key]);
  if (text !== '') return text;
  return key === 'taskSpec' ? `the built-in task ${config.task}` : key === 'gate' ? "the method's built-in gate" : 'none';
}

/** One line for the banner: "clipHigh: expected a number, got \"banana\" (using 0.28)". */
export function describeErrors(errors: readonly FieldError[], config: Config): string[] {
  return errors.map((e) => {
    const used = isConfigKey(e.field) ? ` (using ${usedText(e.field, config)})` : '';
    return `${e.field}: ${e.message}${used}`;
  });
}
