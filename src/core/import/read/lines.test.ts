import { describe, expect, it } from 'vitest';
import { LineSplitter, jsonRecords } from './lines';

const enc = (s: string) => new TextEncoder().encode(s);
async function* chunks(bytes: Uint8Array, size: number) {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}
async function all(bytes: Uint8Array, size: number) {
  const out = [];
  for await (const r of jsonRecords(chunks(bytes, size))) out.push(r);
  return out;
}

describe('LineSplitter', () => {
  it('strips a BOM, splits CRLF and LF, keeps a last line without newline', () => {
    const sp = new LineSplitter();
    const lines = [...sp.push(enc('\uFEFFa\r\nb\n')), ...sp.push(enc('c\r')), ...sp.push(enc('\nd')), ...sp.end()];
    expect(lines).toEqual([
      { text: 'a', line: 1 },
      { text: 'b', line: 2 },
      { text: 'c', line: 3 },
      { text: 'd', line: 4 },
    ]);
  });

  it('keeps multi-byte characters split across chunks (every chunk size)', async () => {
    const src = enc('{"x":"é😀ü"}\n{"x":"ß"}\n');
    for (const size of [1, 2, 3, 5, 64]) {
      const rs = await all(src, size);
      expect(rs.map((r) => ('value' in r ? r.value.x : r.error))).toEqual(['é😀ü', 'ß']);
    }
  });

  it('reports malformed and truncated lines with their numbers and goes on', async () => {
    const rs = await all(enc('{"a":1}\nnot json\n\n[1]\n{"a":2}\n{"a":'), 7);
    expect(rs.map((r) => r.line)).toEqual([1, 2, 4, 5, 6]);
    expect('error' in rs[1] && rs[1].error).toMatch(/malformed JSON/);
    expect('error' in rs[2] && rs[2].error).toMatch(/expected a JSON object, got an array/);
    expect('error' in rs[4] && rs[4].error).toMatch(/truncated/);
  });

  it('an empty file has no records', async () => {
    expect(await all(enc(''), 4)).toEqual([]);
    expect(await all(enc('\uFEFF\r\n\n'), 4)).toEqual([]);
  });
});
