// waitUntil awaits each check (an async false is "not yet", unlike page.waitForFunction) and says what it waited for.
import { describe, expect, it } from 'vitest';
import { waitUntil } from '../support/poll';

describe('waitUntil', () => {
  it('keeps polling while the async check resolves false, and returns once it resolves true', async () => {
    let calls = 0;
    await waitUntil(async () => ++calls >= 3, { timeout: 60_000, every: 1, what: 'three calls' });
    expect(calls).toBe(3);
  });

  it('a check that throws is retried; past the timeout the error names what was awaited and the last failure', async () => {
    await expect(waitUntil(() => Promise.reject(new Error('db closed')), { timeout: 20, every: 1, what: 'weights on every cell' }))
      .rejects.toThrow(/timed out after 20 ms waiting for weights on every cell \(last check threw: Error: db closed\)/);
  });
});
