import { describe, expect, it } from 'vitest';
import { makeConfig } from '../../core/config';
import type { LabStatus } from '../../../workers/lab.api';
import { statusText } from './status';

const config = makeConfig({ clipHigh: 0.28 });
const st = (patch: Partial<LabStatus>): LabStatus => ({ runId: 1, phase: 'paused', message: '', step: 11, backend: 'wasm', backendNote: 'WASM', baseSource: 'test', stepsPerSecond: 0, timeline: [], config, needsReset: false, baseScalars: null, ...patch });

describe('statusText', () => {
  it('is never blank once a run exists (e.g. after Close compare)', () => {
    expect(statusText({ labMessage: '', status: st({}), config, hidden: [] })).toBe('paused at step 11: press Play (space) or Step (→)');
    expect(statusText({ labMessage: '', status: st({ phase: 'ready', step: 0 }), config, hidden: [] })).toBe('ready: press Play (space) or Step (→).');
    expect(statusText({ labMessage: '', status: st({ phase: 'ready', step: 0 }), config, hidden: [], watching: true })).toBe('');
    expect(statusText({ labMessage: '', status: null, config, hidden: [] })).toBe('warming up engine…');
  });
  it('joins the messages and hides presenter-hidden values', () => {
    const s = statusText({ labMessage: 'x', status: st({ message: 'ε_high now 0.28' }), compareMessage: 'forked', config, hidden: ['clipHigh'] });
    expect(s).toBe('x · ε_high now ? · B: forked');
  });
});
