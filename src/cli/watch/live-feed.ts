// The followed run as `npm run watch --port` streams it (src/cli/watch/serve.ts): the follower's
// events (FollowEvents) kept in order with a sequence number each, so a page that connects — late,
// after a reload, or reconnecting with its Last-Event-ID — gets the hello and every event it has not
// had (src/core/import/follow/live-messages.ts), then each new one as it happens. The frames are all
// kept (a frame is a few kB: 1,000 steps are a few MB); of the notices, the latest NOTICES_KEPT.
import { randomBytes } from 'node:crypto';
import type { FollowEvents } from '../../core/import/index';
import { liveEventText, resumeAfter, type LiveEvent, type LiveStreamInfo } from '../../core/import/follow/live-messages';
import type { MetricsFrame } from '../../core/metrics';

/** Notices a page gets on connect (the page keeps as many: src/ui/import/live-run.svelte.ts NOTICES_KEPT). */
export const NOTICES_KEPT = 200;

export class LiveFeed implements FollowEvents {
  /** This follow's id: a page that reconnects to another watch starts its run again. */
  readonly run = randomBytes(6).toString('hex');
  #events: LiveEvent[] = [];
  #seq = 0;
  #noticesTotal = 0;
  #noticesHeld = 0;
  #ended = false;
  #clients = new Set<(text: string) => void>();

  /** `earlier`: the frames of a resumed follow, already in its --out (streamed first, as frames). */
  constructor(
    readonly info: LiveStreamInfo,
    earlier: readonly MetricsFrame[] = [],
  ) {
    for (const f of earlier) this.frame(f, false);
  }

  get ended(): boolean {
    return this.#ended;
  }

  frame(f: MetricsFrame, replaced: boolean): void {
    if (this.#ended) return;
    this.#push({ kind: 'frame', seq: ++this.#seq, frame: f, replaced });
  }

  notice(text: string): void {
    if (this.#ended) return;
    this.#push({ kind: 'notice', seq: ++this.#seq, text, total: ++this.#noticesTotal });
    if (++this.#noticesHeld > NOTICES_KEPT) {
      this.#events.splice(this.#events.findIndex((e) => e.kind === 'notice'), 1);
      this.#noticesHeld--;
    }
  }

  /** The follow is over (with a message: it failed). */
  end(error?: string): void {
    if (this.#ended) return;
    this.#push({ kind: 'end', seq: ++this.#seq, error: error ?? null });
    this.#ended = true;
  }

  /**
   * A page connects: `send` gets the hello and the events after `lastEventId` (all of them when it is
   * none or another run's), then each new event. Returns the way to disconnect.
   */
  connect(lastEventId: string | undefined, send: (text: string) => void): () => void {
    const since = Math.min(resumeAfter(this.run, lastEventId), this.#seq);
    send(liveEventText(this.run, { kind: 'hello', run: this.run, info: this.info, since }));
    for (const e of this.#events) if (e.seq > since) send(liveEventText(this.run, e));
    this.#clients.add(send);
    return () => this.#clients.delete(send);
  }

  #push(e: LiveEvent): void {
    this.#events.push(e);
    const text = liveEventText(this.run, e);
    for (const send of this.#clients) send(text);
  }
}
