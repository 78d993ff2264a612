// The line index (line-offsets.ts) of each JSONL file of a run, shared by every read of the file.
// A page of rows is read at once, so reads of one file run concurrently: one indexing step per file
// runs at a time and the others wait for it (two reads indexing the same chunk would push it twice
// and number every later line wrong). A line read back is checked to be a whole line of the file
// (a "\n" or the file's edge on each side and none inside); an index that fails the check is dropped.
import { LineOffsets } from './line-offsets';

/** A file of the run as it is now (a followed file grows between two opens). */
export interface BrowseFile {
  size: number;
  slice(start: number, end: number): Promise<ArrayBuffer>;
}

/** Bytes read per slice while a file's lines are indexed. */
export const INDEX_CHUNK = 1 << 20;

const NL = 0x0a;

interface Indexed {
  offsets: LineOffsets;
  /** The indexing step running now; the other reads of the file wait for it. */
  growing: Promise<void> | null;
}

export class FileLines {
  readonly #files = new Map<string, Indexed>();

  constructor(private readonly chunk = INDEX_CHUNK) {}

  /** The index of `name` holding its 1-based `line`, or all of `f` when the file has fewer lines. */
  async upTo(name: string, f: BrowseFile, line: number): Promise<LineOffsets> {
    for (;;) {
      let e = this.#files.get(name);
      // a file rewritten shorter is indexed again
      if (!e || e.offsets.bytes > f.size) this.#files.set(name, (e = { offsets: new LineOffsets(), growing: null }));
      if (e.growing) {
        await e.growing;
        continue;
      }
      if (e.offsets.lines >= line || e.offsets.bytes >= f.size) return e.offsets;
      const entry = e;
      entry.growing = this.#grow(name, entry.offsets, f).finally(() => (entry.growing = null));
    }
  }

  async #grow(name: string, offsets: LineOffsets, f: BrowseFile): Promise<void> {
    const start = offsets.bytes;
    const bytes = new Uint8Array(await f.slice(start, Math.min(f.size, start + this.chunk)));
    if (!bytes.byteLength) throw new Error(`${name}: shorter than listed (nothing at byte ${start} of ${f.size})`);
    offsets.push(bytes);
  }

  /** Drops the index of `name` when it is `offsets` (one found wrong); the next read indexes the file again. */
  forget(name: string, offsets: LineOffsets): void {
    if (this.#files.get(name)?.offsets === offsets) this.#files.delete(name);
  }
}

/**
 * The bytes of `range` (a line's [start, end) by its index) when they are a whole line of `f` now:
 * a "\n" or the file's start before, a "\n" or the file's end after, no "\n" inside; else null.
 */
export async function wholeLine(f: BrowseFile, [start, end]: [number, number]): Promise<Uint8Array | null> {
  const from = start > 0 ? start - 1 : 0;
  const to = Math.min(f.size, end + 1);
  const b = new Uint8Array(await f.slice(from, to));
  if (b.byteLength !== to - from) return null;
  if (start > 0 && b[0] !== NL) return null;
  if (end < f.size && b[b.byteLength - 1] !== NL) return null;
  const line = b.subarray(start - from, start - from + (end - start));
  return line.includes(NL) ? null : line;
}
