import { describe, expect, it } from 'vitest';
import { defaultConfig, makeConfig } from '../../core/config';
import { readFileSync } from 'node:fs';
import { LESSON_IDS, parseLesson } from './lessons';
import { decodeUrl, defaultUrlState, describeErrors, encodeUrl, lessonBase, opensFirstLesson, trainsLessonTask, type UrlState } from './url';
import { checkGateDraft } from '../gates/editor';

// The lessons as the lab fetches them (public/presets/<id>.json).
const dir = new URL('../../../public/presets/', import.meta.url);
const read = (file: string) => JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as unknown;
const LESSONS = LESSON_IDS.map((id) => parseLesson(id, read(`${id}.json`), read(`measured/${id}.json`)));
const LESSON_BY_ID = new Map(LESSONS.map((l) => [l.id, l]));
const lessons = LESSON_BY_ID;

describe('URL state codec', () => {
  it('writes only the version for the default state', () => {
    expect(encodeUrl(defaultUrlState(), lessons)).toBe('v=1');
    expect(decodeUrl('v=1', lessons)).toEqual({ state: defaultUrlState(), errors: [] });
  });

  it('round-trips config, seed, lesson, views, selected state, backend and presenter settings', () => {
    const stale = LESSON_BY_ID.get('g-stale-weights-503')!;
    const s: UrlState = {
      config: makeConfig({ ...stale.config, clipHigh: 0.35, seed: 7, temperature: 0.9 }),
      lesson: 'g-stale-weights-503',
      views: ['support', 'inspector'],
      viewState: 'code',
      backend: 'wasm',
      pretrain: 12,
      presenter: { on: true, hide: ['clipHigh', 'staleness'], pauseAt: 20 },
      projector: false,
    };
    const q = encodeUrl(s, lessons);
    expect(q).toBe('v=1&lesson=g-stale-weights-503&seed=7&temperature=0.9&clipHigh=0.35&views=support,inspector&state=code&backend=wasm&pretrain=12&present=1&hide=clipHigh,staleness&pauseAt=20');
    expect(decodeUrl(q, lessons)).toEqual({ state: s, errors: [] });
    expect(decodeUrl('?' + q, lessons).state).toEqual(s);
  });

  it('lists every preset file as a lesson', () => {
    expect(LESSON_IDS.length).toBeGreaterThanOrEqual(9);
    expect(LESSON_IDS).toContain('a-support-collapse');
  });

  it('a lesson URL resolves to defaults ⊕ the lesson settings, on the state the lesson talks about', () => {
    for (const l of LESSONS) {
      const { state, errors } = decodeUrl(`v=1&lesson=${l.id}`, lessons);
      expect(errors).toEqual([]);
      expect(state.config).toEqual(l.resolved);
      expect(state.viewState).toBe(l.state ?? 'mean');
      expect(encodeUrl(state, lessons)).toBe(`v=1&lesson=${l.id}${l.state ? `&state=${l.state}` : ''}`);
    }
  });

  it('a lesson link says state=mean when the mean was chosen (else it would open on the lesson\'s state)', () => {
    const a = LESSON_BY_ID.get('a-support-collapse')!;
    expect(a.state).toBe('math');
    const onMean = { ...decodeUrl('v=1&lesson=a-support-collapse', lessons).state, viewState: 'mean' };
    const q = encodeUrl(onMean, lessons);
    expect(q).toBe('v=1&lesson=a-support-collapse&state=mean');
    expect(decodeUrl(q, lessons).state).toEqual(onMean);
    // a lesson state the URL's task does not have: the mean, with no complaint about a state nobody wrote
    const other = decodeUrl('v=1&lesson=a-support-collapse&task=assistant', lessons);
    expect(other.state.viewState).toBe('mean');
    expect(other.errors.filter((e) => e.field === 'state')).toEqual([]);
  });

  it('a state that the task does not have is reported and falls back to the mean', () => {
    const { state, errors } = decodeUrl('v=1&task=assistant&state=math&seed=3', lessons);
    expect(state.viewState).toBe('mean');
    expect(state.config.seed).toBe(3);
    expect(errors).toEqual([{ field: 'state', message: '"math" is not a state of assistant (code, analysis, chat)' }]);
    expect(decodeUrl('v=1&state=math', lessons)).toEqual({ state: { ...defaultUrlState(), viewState: 'math' }, errors: [] });
  });

  it('invalid values: a clear message each, defaults for the bad fields only', () => {
    const { state, errors } = decodeUrl('v=1&clipHigh=banana&seed=5&lr=-3&nope=1&views=ratio,bogus&backend=cuda&lesson=zzz&pauseAt=x', lessons);
    expect(state.config).toEqual({ ...defaultConfig(), seed: 5 });
    expect(state.views).toEqual(['ratio']);
    expect(state.backend).toBe('auto');
    expect(state.lesson).toBeNull();
    expect(errors.map((e) => e.field).sort()).toEqual(['backend', 'clipHigh', 'lesson', 'lr', 'nope', 'pauseAt', 'views']);
    const lines = describeErrors(errors, state.config);
    expect(lines.find((l) => l.startsWith('clipHigh:'))).toBe('clipHigh: expected a decimal number, got "banana" (using 0.28)');
    expect(lines.find((l) => l.startsWith('lr:'))).toMatch(/outside.*\(using 0\.001\)/);
    expect(lines.find((l) => l.startsWith('nope:'))).toBe('nope: unknown setting');
  });

  it('a bad value under a lesson falls back to the lesson value, not the schema default', () => {
    const { state, errors } = decodeUrl('v=1&lesson=g-stale-weights-503&staleness=99', lessons);
    expect(errors.map((e) => e.field)).toEqual(['staleness']);
    expect(state.config.staleness).toBe(LESSON_BY_ID.get('g-stale-weights-503')!.config.staleness);
  });

  it('reports an unsupported version and cross-field clashes', () => {
    const { state, errors } = decodeUrl('v=2&dualClip=0.5&heads=3', lessons);
    expect(errors.map((e) => e.field).sort()).toEqual(['dualClip', 'heads', 'v']);
    expect(state.config.dualClip).toBe(0);
    expect(state.config.heads).toBe(defaultConfig().heads);
  });

  it('round-trips a custom gate compactly; a bad gate is reported and falls back to the lesson/default gate', () => {
    const gate = 'votes_pos > 0 && votes_neg > 0 => drop # votes disagree\n!has_next_state => mask0\ntrue => mask1 0.5*rl + opd';
    const s: UrlState = { ...defaultUrlState(), config: makeConfig({ gate, seed: 3 }) };
    const q = encodeUrl(s, lessons);
    expect(q).toBe('v=1&seed=3&gate=votes_pos+%3E+0+%26%26+votes_neg+%3E+0+%3D%3E+drop+%23+votes+disagree%0A!has_next_state+%3D%3E+mask0%0Atrue+%3D%3E+mask1+0.5*rl+%2B+opd');
    expect(decodeUrl(q, lessons)).toEqual({ state: s, errors: [] });
    const bad = decodeUrl('v=1&seed=3&gate=votes_pso+%3E+0+%3D%3E+drop', lessons);
    expect(bad.state.config).toEqual({ ...defaultConfig(), seed: 3 });
    expect(describeErrors(bad.errors, bad.state.config)).toEqual([
      expect.stringMatching(/^gate: "votes_pso > 0 => drop": rule 1, character 1: unknown field "votes_pso".*votes_pos.*\(using the method's built-in gate\)$/),
    ]);
    const trailing = decodeUrl('v=1&gate=true+%3D%3E+mask1+rl+rl', lessons);
    expect(trailing.state.config.gate).toBe('');
    expect(trailing.errors.map((e) => e.field)).toEqual(['gate']);
  });
});

// Issue 10 §1: the decoder's reports under hostile links (the banner shows them one per line).
describe('decodeUrl hardening', () => {
  it('?dModel=30 ends in a valid config, also under a lesson', () => {
    for (const q of ['?dModel=30', '?lesson=a-support-collapse&dModel=30', '?heads=3']) {
      const { state, errors } = decodeUrl(q, lessons);
      expect(state.config.dModel % state.config.heads, q).toBe(0);
      expect(errors.length, q).toBe(1);
    }
  });
  it('duplicate keys appear once, with the value actually used', () => {
    const { state, errors } = decodeUrl('?foo=1&foo=1&seed=4&seed=9&clipHigh=banana&clipHigh=0.3', lessons);
    expect(errors.map((e) => e.field).sort()).toEqual(['clipHigh', 'foo', 'seed']);
    expect(state.config.seed).toBe(9);
    expect(state.config.clipHigh).toBe(0.3);
    expect(errors.find((e) => e.field === 'seed')!.message).toContain('"4", "9"');
    const lines = describeErrors(errors, state.config);
    expect(new Set(lines).size).toBe(lines.length);
  });
  it('Object.prototype names are unknown, not JS internals', () => {
    const { state, errors } = decodeUrl('?constructor=1&toString=2&hide=constructor,__proto__', lessons);
    const lines = describeErrors(errors, state.config).join('\n');
    expect(lines).not.toMatch(/function|native code|\[object/);
    expect(lines).toContain('constructor: unknown setting');
    expect(state.presenter.hide).toEqual([]);
  });
  it('caps unknown keys, the link size and the pretraining a link can ask for', () => {
    const many = Array.from({ length: 2000 }, (_, i) => `k${i}=1`).join('&');
    expect(decodeUrl(`?${many}`, lessons).errors.length).toBeLessThanOrEqual(12);
    const huge = decodeUrl('?pretrain=10000000', lessons);
    expect(huge.state.pretrain).toBeNull();
    expect(huge.errors[0].field).toBe('pretrain');
    expect(decodeUrl('?pretrain=300', lessons).state.pretrain).toBe(300);
    const long = decodeUrl(`?seed=3&x=${'y'.repeat(20_000)}`, lessons);
    expect(long.state.config.seed).toBe(3);
    expect(long.errors.map((e) => e.field)).toEqual(['(url)']);
  });
});

// Issue 16 §2: a rule with an unpaired surrogate made the URL encoder throw; after Apply the URL
// stopped following the settings.
describe('unpaired surrogates', () => {
  const rule = 'true => drop # \ud800';
  it('the gate editor cannot apply such a draft, and says which character', () => {
    const check = checkGateDraft(rule);
    expect(check.gate).toBeNull();
    expect(check.problems.map((p) => p.reason).join('\n')).toMatch(/character 16 is half of a character pair/);
  });
  it('the encoder never throws, even for a config that skipped validation', () => {
    const s: UrlState = { ...defaultUrlState(), config: { ...defaultConfig(), gate: rule } };
    expect(encodeUrl(s, lessons)).toBe('v=1&gate=true+%3D%3E+drop+%23+%EF%BF%BD');
  });
});

describe('trainsLessonTask', () => {
  const spec = (name: string) => JSON.stringify({ ...JSON.parse(readFileSync(new URL('../../../public/tasks/triage.json', import.meta.url), 'utf8')), name });
  it('a custom or fitted task, or another built-in, is not the open lesson any more; its own task (even re-spelled) is', () => {
    const a = { task: 'strategies' as const };
    expect(trainsLessonTask(a, lessonBase(a))).toBe(true);
    expect(trainsLessonTask(a, { ...lessonBase(a), lr: 0.1 })).toBe(true);
    expect(trainsLessonTask(a, { ...lessonBase(a), taskSpec: spec('mine') })).toBe(false);
    expect(trainsLessonTask(a, { ...lessonBase(a), task: 'assistant' })).toBe(false);
    // a lesson on a fitted task (o) keeps it when the same spec comes back in another spelling
    const o = { taskSpec: spec('fitted') };
    const respelled = JSON.stringify(JSON.parse(o.taskSpec), null, 2);
    expect(trainsLessonTask(o, { ...lessonBase(o), taskSpec: respelled })).toBe(true);
    expect(trainsLessonTask(o, { ...lessonBase(o), taskSpec: spec('other') })).toBe(false);
    expect(trainsLessonTask(o, { ...lessonBase(o), taskSpec: '' })).toBe(false);
  });
});

describe('opensFirstLesson', () => {
  it('a bare URL opens the first lesson; a page served by npm run watch --port opens on the followed run, never on a lesson', () => {
    expect(opensFirstLesson('', false)).toBe(true);
    expect(opensFirstLesson('?v=1', false)).toBe(true);
    expect(opensFirstLesson('?lr=0.1', false)).toBe(false);
    expect(opensFirstLesson('', true)).toBe(false);
    expect(opensFirstLesson('?v=1', true)).toBe(false);
  });
});
