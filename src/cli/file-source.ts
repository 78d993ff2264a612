// A file on disk as an import source (src/core/import/types.ts ImportSource): streamed in chunks, sliced by byte range.
import { statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { ImportSource } from '../core/import/index';

const READ_CHUNK = 1 << 18;

export function fileSource(path: string): ImportSource {
  return {
    name: path,
    size: statSync(path).size,
    // one buffer read into again and again: a fresh buffer a chunk is external memory V8 frees only
    // every 64 MB or so, a third of the import's peak RSS (src/bench/import-memory.ts)
    async *stream() {
      const fh = await open(path, 'r');
      try {
        const buf = Buffer.allocUnsafe(READ_CHUNK);
        for (let n; (n = (await fh.read(buf, 0, READ_CHUNK, null)).bytesRead) > 0; ) yield buf.subarray(0, n);
      } finally {
        await fh.close();
      }
    },
    async slice(a, b) {
      const fh = await open(path, 'r');
      try {
        const buf = Buffer.alloc(b - a);
        await fh.read(buf, 0, b - a, a);
        return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
      } finally {
        await fh.close();
      }
    },
  };
}
