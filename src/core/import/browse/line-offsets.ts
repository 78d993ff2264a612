// Where each line of a JSONL file starts, in bytes: the rollout viewer reads one sample back by
// slicing [start, end) of its line (File.slice in the page, a file handle in the CLI) instead of
// holding the text. Lines are numbered as the import's line splitter numbers them (read/lines.ts):
// 1-based, one per "\n", plus a last line without a newline. Fed chunk by chunk, so a file that
// grows (a followed run) is indexed further from where it stopped.

const NL = 0x0a;

export class LineOffsets {
  /** starts[k] = byte offset of line k + 1; starts[lines] = where the next line will start. */
  #starts = new Float64Array(1024);
  #lines = 0;
  /** Bytes indexed so far. */
  bytes = 0;

  /** Complete lines (each ended by "\n") indexed so far. */
  get lines(): number {
    return this.#lines;
  }

  push(chunk: Uint8Array): void {
    for (let i = chunk.indexOf(NL); i >= 0; i = chunk.indexOf(NL, i + 1)) this.#add(this.bytes + i + 1);
    this.bytes += chunk.byteLength;
  }

  #add(nextStart: number): void {
    if (this.#lines + 2 > this.#starts.length) {
      const grown = new Float64Array(this.#starts.length * 2);
      grown.set(this.#starts);
      this.#starts = grown;
    }
    this.#starts[++this.#lines] = nextStart;
  }

  /** Lines of a file of `size` bytes as far as indexed: the complete ones and a last one without a newline. */
  count(size = this.bytes): number {
    return this.#lines + (size > this.#starts[this.#lines] ? 1 : 0);
  }

  /**
   * Byte range [start, end) of 1-based `line` (its "\n" excluded); a last line without a newline
   * when `size` (the file's size now) reaches past the last "\n"; null for a line not indexed.
   */
  range(line: number, size = this.bytes): [number, number] | null {
    if (!Number.isInteger(line) || line < 1) return null;
    if (line <= this.#lines) return [this.#starts[line - 1], this.#starts[line] - 1];
    if (line === this.#lines + 1 && size > this.#starts[this.#lines]) return [this.#starts[this.#lines], size];
    return null;
  }
}

/** A line's bytes as text: the BOM of a file's first line and a "\r" before the "\n" removed (as read/lines.ts does). */
export function lineText(bytes: ArrayBuffer | Uint8Array): string {
  let s = new TextDecoder('utf-8').decode(bytes);
  if (s.charCodeAt(0) === 0xfeff) s = s.slice(1);
  return s.endsWith('\r') ? s.slice(0, -1) : s;
}
