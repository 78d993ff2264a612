import { describe, expect, it } from 'vitest';
import { makeConfig } from '../../core/config';
import type { LabStatus } from '../../../workers/lab.api';
import { statusText } from './status';

const config = makeConfig({ clipHigh: 0.28 });
const st = (patch: Partial<LabStatus>): LabStatus => ({ runId: 1, phase: 'paused', message: '', step: 11, backend: 'wasm', backendNote: 'WASM', baseSource: 'test', stepsPerSecond: 0, timeline: [], config, continues: 0, needsReset: false, baseScalars: null, ...patch });

describe('statusText', () => {
  it('is never blank once a run exists (e.g. after Close compare)', () => {
    expect(statusText({ labMessage: '', status: st({}), config, hidden: [] })).toBe('paused at step 11: press Play (space) or Step (→)');
    expect(statusText({ labMessage: '', status: st({ phase: 'ready', step: 0 }), config, hidden: [] })).toBe('ready: press Play (space) or Step (→).');
    expect(statusText({ labMessage: '', status: st({ phase: 'ready', step: 0 }), config, hidden: [], watching: true })).toBe('');
    expect(statusText({ labMessage: '', status: null, config, hidden: [] })).toBe('warming up engine…');
  });
  it('joins the messages and hides presenter-hidden values', () => {
    const s = statusText({ labMessage: 'x', status: st({ message: 'ε_high now 0.28' }), compare: st({ message: 'forked' }), config, hidden: ['clipHigh'] });
    expect(s).toBe('x · ε_high now ? · B: forked');
  });
});

describe('statusText while playing and pausing (issue 10 §3)', () => {
  it('says the step and the rate while playing (was blank)', () => {
    expect(statusText({ labMessage: '', status: st({ phase: 'running', step: 42, stepsPerSecond: 3.42 }), config, hidden: [] })).toBe('playing · step 42 · 3.4 steps/s');
    expect(statusText({ labMessage: '', status: st({ phase: 'running', step: 7, stepsPerSecond: 51.3 }), config, hidden: [] })).toBe('playing · step 7 · 51 steps/s');
    expect(statusText({ labMessage: '', status: st({ phase: 'running', step: 1, stepsPerSecond: 0 }), config, hidden: [] })).toBe('playing · step 1');
  });
  it('says pausing at once, before the worker reports idle, whatever else is said', () => {
    expect(statusText({ labMessage: '', status: st({ phase: 'running', step: 42 }), config, hidden: [], pausing: true })).toBe('pausing… after the step in progress (now at step 42)');
    expect(statusText({ labMessage: 'x', status: st({ phase: 'running', step: 42 }), config, hidden: [], pausing: true })).toMatch(/^pausing… after the step in progress \(now at step 42\) · x$/);
    // once the worker is idle the phase says it: no pausing line is left over
    expect(statusText({ labMessage: '', status: st({ phase: 'paused', step: 43 }), config, hidden: [], pausing: true })).toBe('paused at step 43: press Play (space) or Step (→)');
  });
});

describe('statusText when Play is pressed before the engine is ready (issue 35 §2)', () => {
  it('says the press is queued while the engine warms up or pretrains, and nothing of it once ready', () => {
    expect(statusText({ labMessage: '', status: null, config, hidden: [], playQueued: true })).toBe('warming up engine… · Play pressed: the run starts as soon as the engine is ready (space again to cancel)');
    expect(statusText({ labMessage: '', status: st({ phase: 'pretraining', message: 'pretraining the base' }), config, hidden: [], playQueued: true })).toMatch(/^pretraining the base · Play pressed: the run starts as soon as/);
    expect(statusText({ labMessage: '', status: st({ phase: 'ready', step: 0 }), config, hidden: [], playQueued: true })).toBe('ready: press Play (space) or Step (→).');
    expect(statusText({ labMessage: '', status: null, config, hidden: [] })).toBe('warming up engine…');
  });
});

describe('statusText while comparing (issue 43 §5)', () => {
  it("says what each run is doing: B's message does not hide A's progress", () => {
    const b = st({ phase: 'running', step: 5, message: 'run B: ε_high 0.2' });
    expect(statusText({ labMessage: '', status: st({ phase: 'running', step: 12, stepsPerSecond: 2 }), compare: b, config, hidden: [] })).toBe('playing · step 12 · 2.0 steps/s · B: run B: ε_high 0.2');
  });
  it("a fork of a finished run: A finished, B's progress shown", () => {
    const a = st({ phase: 'done', step: 60 });
    expect(statusText({ labMessage: '', status: a, compare: st({ phase: 'running', step: 7 }), config, hidden: [] })).toBe('finished at step 60: Reset (r) to run again · B: playing · step 7');
    expect(statusText({ labMessage: '', status: a, compare: st({ phase: 'ready', step: 0 }), config, hidden: [] })).toBe('finished at step 60: Reset (r) to run again');
  });
});
