/**
 * The rollout viewer's read-back in real Chromium (tests/browser/sample-read.html): many reads of
 * random lines of a verl step file at once, through a picked File and a followed folder (the Origin
 * Private File System), each against the file's real line. The Node side of the same property is
 * src/core/import/browse/file-lines.test.ts.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, type OpenedPage } from '../browser/harness';
import { scaled } from '../support/speed';

describe('sample read-back in the page', () => {
  let h: OpenedPage;
  beforeAll(async () => {
    h = await openPage('nogpu', '/tests/browser/sample-read.html');
    await h.page.waitForSelector('body[data-ready="1"]', { state: 'attached', timeout: scaled(30_000) });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('every read of many at once gets its own line, from a picked file and from a followed folder', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: 'grapheme', maxLength: 40 }), { minLength: 1, maxLength: 200 }),
        fc.integer({ min: 1, max: 256 }),
        fc.array(fc.nat(), { minLength: 2, maxLength: 60 }),
        async (responses, chunk, picks) => {
          const text = responses.map((r, i) => JSON.stringify({ input: `p${i}`, output: r, score: 1, step: 1 }) + '\n').join('');
          const lines = picks.map((p) => p % responses.length);
          const want = lines.map((i) => responses[i]);
          expect(await h.page.evaluate(([t, l, c]) => window.sampleRead.picked(t, l, c), [text, lines, chunk] as const)).toEqual(want);
          expect(await h.page.evaluate(([t, l, c]) => window.sampleRead.followed(t, l, c), [text, lines, chunk] as const)).toEqual(want);
        },
      ),
      { numRuns: 25 },
    );
    expect(h.errors).toEqual([]);
  }, scaled(120_000));
});
