// The page's side of the live stream (live-stream.ts): the <meta> the watch server adds gives the
// stream's address; each event is taken once, however the connection drops and comes back (the
// server replays from the last id, or from the start); a restarted watch opens a new run; a bad
// message ends the run saying what was wrong.
import { describe, expect, it } from 'vitest';
import { liveEventText, type LiveMessage } from '../../core/import/follow/live-messages';
import type { MetricsFrame } from '../../core/metrics';
import { LOST, LiveStreamReader, liveStreamUrl, openLiveStream, type EventSourceLike, type LiveSink } from './live-stream';

const INFO = { source: 'folder x, followed by npm run watch', format: 'verl', eps: 0.05, reward: 'the score', gate: null } as const;
const frame = (step: number): MetricsFrame => ({ step, version: step, scalars: { 'import/samples': step }, series: {}, ratioEdges: [], perf: {}, changes: {}, trace: [] });
const hello = (run: string, since = 0): LiveMessage => ({ kind: 'hello', run, info: INFO, since });
const fr = (seq: number, step = seq, replaced = false): LiveMessage => ({ kind: 'frame', seq, frame: frame(step), replaced });

/** A sink that writes down what it is told, and the runs opened. */
function recorder() {
  const runs: string[][] = [];
  const failed: string[] = [];
  const reader = new LiveStreamReader(
    (info): LiveSink => {
      const log: string[] = [`open ${info.source}`];
      runs.push(log);
      return {
        frame: (f, replaced) => log.push(`frame ${f.step}${replaced ? ' replaced' : ''}`),
        notice: (t, total) => log.push(`notice ${t} (${total})`),
        end: (e) => log.push(`end ${e ?? 'ok'}`),
      };
    },
    (m) => failed.push(m),
  );
  return { reader, runs, failed };
}

describe('the live stream in the page', () => {
  it("finds the stream by the watch server's <meta>, relative to the page; none on a plain page", () => {
    const doc = (content: string | null) => ({ baseURI: 'http://localhost:9000/index.html?backend=wasm', querySelector: (q: string) => (content !== null && q === 'meta[name="invlab-live"]' ? { getAttribute: () => content } : null) }) as unknown as Document;
    expect(liveStreamUrl(doc('live/events'))).toBe('http://localhost:9000/live/events');
    expect(liveStreamUrl(doc(null))).toBeNull();
  });

  it('takes each event once over reconnects, whether the server replays from the last id or from the start', () => {
    const { reader, runs } = recorder();
    const all = [hello('r1'), fr(1), fr(2), { kind: 'notice', seq: 3, text: 'cut line', total: 1 } as LiveMessage, fr(4, 3)];
    all.forEach((m) => reader.take(m));
    reader.lost();
    reader.lost(); // said once per outage
    // reconnect with the last id: the server sends from seq 5
    [hello('r1', 4), fr(5, 2, true)].forEach((m) => reader.take(m));
    // a reconnect that is replayed from the start: nothing is taken twice
    [hello('r1'), ...all.slice(1), fr(5, 2, true), fr(6, 4)].forEach((m) => reader.take(m));
    expect(reader.take({ kind: 'end', seq: 7, error: null })).toBe(true);
    expect(reader.take(fr(8, 9))).toBe(true); // nothing after the end
    expect(runs).toEqual([['open folder x, followed by npm run watch', 'frame 1', 'frame 2', 'notice cut line (1)', 'frame 3', `notice ${LOST} (undefined)`, 'frame 2 replaced', 'frame 4', 'end ok']]);
  });

  it('a hello of another run (watch restarted) opens a new run; its events count from 1 again', () => {
    const { reader, runs } = recorder();
    [hello('r1'), fr(1), fr(2), hello('r2'), fr(1, 1), fr(2, 2), fr(3, 3)].forEach((m) => reader.take(m));
    expect(runs.map((r) => r.slice(1))).toEqual([['frame 1', 'frame 2'], ['frame 1', 'frame 2', 'frame 3']]);
  });

  it('over an EventSource: the messages as the server writes them; a bad one ends the run naming it; a refused stream is said', () => {
    class FakeSource implements EventSourceLike {
      readyState = 1;
      closed = false;
      listeners = new Map<string, (e: { data?: unknown }) => void>();
      addEventListener(kind: string, f: (e: { data?: unknown }) => void) {
        this.listeners.set(kind, f);
      }
      close() {
        this.closed = true;
        this.readyState = 2;
      }
      /** Deliver what the server wrote (liveEventText) as EventSource would: its event name and data. */
      deliver(text: string) {
        this.listeners.get(/^event: (\w+)$/m.exec(text)![1])!({ data: /^data: (.*)$/m.exec(text)![1] });
      }
    }
    const sources: FakeSource[] = [];
    const connect = (url: string) => {
      expect(url).toBe('http://127.0.0.1:6006/live/events');
      const s = new FakeSource();
      sources.push(s);
      return s;
    };
    const a = recorder();
    openLiveStream('http://127.0.0.1:6006/live/events', a.reader, connect);
    for (const m of [hello('r1'), fr(1), fr(2), { kind: 'end', seq: 3, error: 'permission denied' } as LiveMessage]) sources[0].deliver(liveEventText('r1', m));
    expect(a.runs[0].slice(1)).toEqual(['frame 1', 'frame 2', 'end permission denied']);
    expect(sources[0].closed).toBe(true); // over: no reconnect

    const b = recorder();
    openLiveStream('http://127.0.0.1:6006/live/events', b.reader, connect);
    sources[1].deliver(liveEventText('r1', hello('r1')));
    sources[1].listeners.get('frame')!({ data: '{"seq":1,"replaced":false,"frame":{"step":"one"}}' });
    expect(b.runs[0][1]).toMatch(/^end the live stream's frame event is not valid: frame\.step: expected a step number, got "one"/);
    expect(sources[1].closed).toBe(true);

    const c = recorder();
    openLiveStream('http://127.0.0.1:6006/live/events', c.reader, connect);
    sources[2].readyState = 2;
    sources[2].listeners.get('error')!({});
    expect(c.failed).toEqual(['npm run watch refused the stream (is this page still served by it?)']);
  });
});
