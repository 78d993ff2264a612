// Samples read back at once (a page of rows) get their own line: many concurrent reads of random
// lines, their slices answered in an order fast-check's scheduler picks, against the file's real lines.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BrowseFile } from './file-lines';
import { SampleTextReader } from './sample-text';

const enc = new TextEncoder();

/** A verl step file: one JSON object a line, its response the line's own text. */
function verlFile(responses: readonly string[], crlf: boolean, lastNewline: boolean): Uint8Array {
  const lines = responses.map((r, i) => JSON.stringify({ input: `p${i}`, output: r, score: 1, step: 1 }));
  const nl = crlf ? '\r\n' : '\n';
  return enc.encode(lines.join(nl) + (lastNewline ? nl : ''));
}

/** The bytes as a file whose every slice resolves when `later` says (in any order). */
function fileOf(bytes: () => Uint8Array, later: <T>(v: T) => Promise<T> = async (v) => v): BrowseFile {
  return {
    get size() {
      return bytes().byteLength;
    },
    slice: (a, b) => later(bytes().slice(a, b).buffer),
  };
}

describe('sample text read back while other reads of the file run', () => {
  it('every read of many at once gets its own line, whatever order the slices come back in', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: 'grapheme', maxLength: 12 }), { minLength: 1, maxLength: 40 }),
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 1, max: 64 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 30 }),
        fc.scheduler(),
        async (responses, crlf, lastNewline, chunk, picks, s) => {
          const bytes = verlFile(responses, crlf, lastNewline);
          const reader = new SampleTextReader('verl', async () => fileOf(() => bytes, (v) => s.schedule(Promise.resolve(v))), undefined, chunk);
          // one index past the last line too: an error naming the line, never another line's text
          const lines = picks.map((p) => p % (responses.length + 1));
          const reads = lines.map((i) => reader.read('1.jsonl', i).then((t) => t.response, (e: Error) => e.message));
          const got = await s.waitFor(Promise.all(reads));
          expect(got).toEqual(lines.map((i) => (i < responses.length ? responses[i] : `1.jsonl: no line ${i + 1} (the file has ${responses.length})`)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a page of reads over a file of several 1 MiB index chunks', async () => {
    const responses = Array.from({ length: 9000 }, (_, i) => `response ${i} `.padEnd(300 + (i % 97), String.fromCharCode(97 + (i % 26))));
    const bytes = verlFile(responses, false, true);
    expect(bytes.byteLength).toBeGreaterThan(2.5 * (1 << 20));
    const reader = new SampleTextReader('verl', async () => fileOf(() => bytes, (v) => new Promise((r) => setTimeout(() => r(v), Math.random() * 3))));
    const lines = Array.from({ length: 60 }, (_, k) => (k * 7919) % responses.length);
    const got = await Promise.all(lines.map((i) => reader.read('1.jsonl', i)));
    expect(got.map((t) => t.response)).toEqual(lines.map((i) => responses[i]));
  });

  it('a file rewritten since it was indexed is indexed again, not read at the old offsets', async () => {
    let bytes = verlFile(['aa', 'bb', 'cc'], false, true);
    const reader = new SampleTextReader('verl', async () => fileOf(() => bytes));
    expect((await reader.read('1.jsonl', 2)).response).toBe('cc');
    // the same size, the lines' ends moved
    bytes = verlFile(['a', 'bbb', 'cc'], false, true);
    expect((await reader.read('1.jsonl', 1)).response).toBe('bbb');
    expect((await reader.read('1.jsonl', 0)).response).toBe('a');
  });

  it('a file that is shorter than listed is an error, not a read that never ends', async () => {
    const bytes = verlFile(['aa', 'bb'], false, false);
    const reader = new SampleTextReader('verl', async () => ({ size: bytes.byteLength + 100, slice: async (a, b) => bytes.slice(a, b).buffer }));
    await expect(reader.read('1.jsonl', 5)).rejects.toThrow(`1.jsonl: shorter than listed (nothing at byte ${bytes.byteLength} of ${bytes.byteLength + 100})`);
  });
});
