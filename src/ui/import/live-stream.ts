// A run streamed by `npm run watch --port` (src/cli/watch/serve.ts) into the import view: the page
// knows it was served so by the <meta name="invlab-live"> the server puts in it, listens to the
// stream with an EventSource and hands each message — checked by the core
// (src/core/import/follow/live-messages.ts) — to a live run (live-run.svelte.ts LiveRun: the same
// one the folder follow feeds, so the banner, markers, gate replay and task fit are the same). A
// message already taken is not taken again: EventSource reconnects on its own with the last id it
// had and the server sends only what came after, but the reader also drops any event whose sequence
// number it has had. A hello of another run (watch restarted) starts a new live run.
import { LIVE_KINDS, LIVE_META, parseLiveMessage, type LiveMessage, type LiveStreamInfo } from '../../core/import/follow/live-messages';
import type { MetricsFrame } from '../../core/metrics';
import { errorText } from '../../core/unknown';

/** What a stream feeds: LiveRun's mutators (a notice may say how many were said in all). */
export interface LiveSink {
  frame(f: MetricsFrame, replaced: boolean): void;
  notice(text: string, total?: number): void;
  end(error?: string): void;
}

/** The stream's address when `npm run watch --port` served this page (its <meta>), else null. */
export function liveStreamUrl(doc: Pick<Document, 'querySelector' | 'baseURI'>): string | null {
  const at = doc.querySelector(`meta[name="${LIVE_META}"]`)?.getAttribute('content');
  return at ? new URL(at, doc.baseURI).href : null;
}

export const LOST = 'The connection to npm run watch was lost; reconnecting (the steps it missed will come).';

/** The stream's messages taken into live runs, each event once. */
export class LiveStreamReader {
  #run: string | null = null;
  #seq = 0;
  #sink: LiveSink | null = null;
  #over = false;
  #lost = false;

  /** `open`: a new live run for a streamed run; `failed`: what went wrong before any run opened. */
  constructor(
    private readonly open: (info: LiveStreamInfo) => LiveSink,
    private readonly failed: (message: string) => void,
  ) {}

  /** Take a message; true once the stream is over (its end taken). */
  take(m: LiveMessage): boolean {
    if (m.kind === 'hello') {
      this.#lost = false;
      if (m.run !== this.#run) {
        this.#run = m.run;
        this.#seq = 0;
        this.#over = false;
        this.#sink = this.open(m.info);
      }
      return this.#over;
    }
    if (!this.#sink || this.#over || m.seq <= this.#seq) return this.#over;
    this.#seq = m.seq;
    if (m.kind === 'frame') this.#sink.frame(m.frame, m.replaced);
    else if (m.kind === 'notice') this.#sink.notice(m.text, m.total);
    else {
      this.#over = true;
      this.#sink.end(m.error ?? undefined);
    }
    return this.#over;
  }

  /** The connection dropped (EventSource tries again): said once until it is back. */
  lost(): void {
    if (this.#over || this.#lost || !this.#sink) return;
    this.#lost = true;
    this.#sink.notice(LOST);
  }

  /** The stream cannot go on (a bad message, the server refused it). */
  fail(message: string): void {
    if (this.#over) return;
    this.#over = true;
    if (this.#sink) this.#sink.end(message);
    else this.failed(message);
  }
}

/** The part of EventSource the stream uses (a test hands its own). */
export interface EventSourceLike {
  readonly readyState: number;
  addEventListener(kind: string, f: (e: { data?: unknown }) => void): void;
  close(): void;
}

/** EventSource.CLOSED: it will not try again. */
const CLOSED = 2;

/** Listen to the stream at `url` into `reader`; returns the way to stop. */
export function openLiveStream(url: string, reader: LiveStreamReader, connect: (url: string) => EventSourceLike = (u) => new EventSource(u)): () => void {
  const es = connect(url);
  for (const kind of LIVE_KINDS)
    es.addEventListener(kind, (e) => {
      let m: LiveMessage;
      try {
        m = parseLiveMessage(kind, String(e.data));
      } catch (err) {
        reader.fail(errorText(err));
        return es.close();
      }
      if (reader.take(m)) es.close();
    });
  es.addEventListener('error', () => {
    if (es.readyState === CLOSED) reader.fail('npm run watch refused the stream (is this page still served by it?)');
    else reader.lost();
  });
  return () => es.close();
}
