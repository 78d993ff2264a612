import { describe, expect, it } from 'vitest';
import { WorkerStopped, actionMessage } from './recovery';

describe('actionMessage', () => {
  it('says nothing for a call that a dead worker rejected (the recovery says it), the error otherwise', () => {
    expect(actionMessage(new WorkerStopped('lab worker A stopped: no answer for 15 s'))).toBe('');
    expect(actionMessage(new Error('no run to fork'))).toBe('no run to fork');
    expect(actionMessage('plain')).toBe('plain');
  });
});
