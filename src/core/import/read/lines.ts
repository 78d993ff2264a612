// Streaming line reader: bytes in chunks → complete lines with their 1-based numbers. Handles a
// UTF-8 BOM, CRLF and LF, multi-byte characters split across chunks, and a last line without a
// newline (returned by `end()`; a truncated JSON record then fails to parse and is reported there).
import { errorText } from '../../unknown';

export interface Line {
  text: string;
  line: number;
}

export class LineSplitter {
  private decoder = new TextDecoder('utf-8');
  private rest = '';
  private n = 0;
  private first = true;

  /** Lines completed by this chunk. */
  push(chunk: Uint8Array): Line[] {
    let s = this.decoder.decode(chunk, { stream: true });
    if (this.first && s.length) {
      if (s.charCodeAt(0) === 0xfeff) s = s.slice(1);
      this.first = false;
    }
    return this.split(s, false);
  }

  /** Characters held of a line whose newline has not come yet. */
  get partial(): number {
    return this.rest.length;
  }

  /** Lines returned so far (the number of the last one). */
  get lines(): number {
    return this.n;
  }

  /** The remaining partial line, if any (a file that does not end with a newline). */
  end(): Line[] {
    return this.split(this.decoder.decode(), true);
  }

  private split(s: string, final: boolean): Line[] {
    const text = this.rest + s;
    const out: Line[] = [];
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) break;
      const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      out.push({ text: text.slice(start, end), line: ++this.n });
      start = nl + 1;
    }
    this.rest = text.slice(start);
    if (final && this.rest.length) {
      const t = this.rest.endsWith('\r') ? this.rest.slice(0, -1) : this.rest;
      out.push({ text: t, line: ++this.n });
      this.rest = '';
    }
    return out;
  }
}

export type JsonLine = { line: number; value: Record<string, unknown> } | { line: number; error: string };

/** Parse one JSONL line: an object, or an error message (blank lines are skipped by the caller). */
export function parseJsonLine(l: Line, last: boolean): JsonLine {
  try {
    const v: unknown = JSON.parse(l.text);
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return { line: l.line, error: `expected a JSON object, got ${Array.isArray(v) ? 'an array' : v === null ? 'null' : typeof v}` };
    return { line: l.line, value: v as Record<string, unknown> };
  } catch (e) {
    const why = errorText(e);
    return { line: l.line, error: last ? `truncated or malformed last line (${why})` : `malformed JSON (${why})` };
  }
}

/**
 * JSON records of a JSONL byte stream, in order; malformed lines come back as errors with their line
 * number. `onBytes` reports bytes consumed (for a progress bar).
 */
export async function* jsonRecords(chunks: AsyncIterable<Uint8Array>, onBytes?: (n: number) => void): AsyncGenerator<JsonLine> {
  const sp = new LineSplitter();
  for await (const c of chunks) {
    for (const l of sp.push(c)) if (l.text.trim()) yield parseJsonLine(l, false);
    onBytes?.(c.byteLength);
  }
  for (const l of sp.end()) if (l.text.trim()) yield parseJsonLine(l, true);
}
