// The messages of a followed run streamed to a page: `npm run watch --port` sends them as
// Server-Sent Events (src/cli/watch/live-feed.ts), the page checks each one here before a live run
// takes it (src/ui/import/live-stream.ts). Every connection starts with a `hello` (the run's id — a
// new one each time watch starts — what it is, and the sequence number it replays from); then the
// run's events in the order they happened, each with a sequence number that is its SSE id
// (`<run>.<seq>`), so a reconnect (EventSource sends the last id) gets only what it missed and a
// page can drop what it has already taken. Frames travel as the bundle's frame JSON (non-finite
// numbers as "NaN"/"Infinity" strings) and are read back by the bundle's frame reader.
import type { FieldError } from '../../config';
import { parseFrame, stringifyWithNonFinite } from '../../experiment/bundle';
import type { MetricsFrame } from '../../metrics';
import { isObject } from '../../unknown';
import { FORMATS, type FormatId } from '../types';

/** The <meta name> that tells a page served by watch where its stream is (content: LIVE_EVENTS, relative to the page). */
export const LIVE_META = 'invlab-live';
export const LIVE_EVENTS = 'live/events';

/** What a streamed run is: LiveRunInfo's fields (src/ui/import/live-frames.ts) and the gate it is measured with. */
export interface LiveStreamInfo {
  /** The run's source in words, e.g. "folder /runs/x, followed by npm run watch". */
  source: string;
  format: FormatId;
  eps: number;
  /** The reward that was read, in words (describeReward). */
  reward: string;
  /** The gate replayed on the samples (its rule text), null for none. */
  gate: string | null;
  /**
   * The behavior rule file the run is measured with (its text, as `--behaviors` gave it), null when
   * every behavior is discovered: the page names a discovered behavior into a copy of this file.
   */
  behaviors?: string | null;
}

export interface LiveHello {
  kind: 'hello';
  run: string;
  info: LiveStreamInfo;
  /** The events after this sequence number follow (0: all of them, from the start). */
  since: number;
}

export type LiveEvent =
  | { kind: 'frame'; seq: number; frame: MetricsFrame; replaced: boolean }
  /** `total`: notices said in all, this one included (the stream keeps only the latest). */
  | { kind: 'notice'; seq: number; text: string; total: number }
  /** The follow is over; `error`: it stopped on one. */
  | { kind: 'end'; seq: number; error: string | null };

export type LiveMessage = LiveHello | LiveEvent;
export type LiveKind = LiveMessage['kind'];
export const LIVE_KINDS: readonly LiveKind[] = ['hello', 'frame', 'notice', 'end'];

/** A message as one Server-Sent Event (an event carries the id `<run>.<seq>`, a hello none). */
export function liveEventText(run: string, m: LiveMessage): string {
  const { kind, ...body } = m;
  const id = m.kind === 'hello' ? '' : `id: ${run}.${m.seq}\n`;
  return `${id}event: ${kind}\ndata: ${stringifyWithNonFinite(body)}\n\n`;
}

/** The sequence number a reconnect of `run` resumes after (its Last-Event-ID); 0 for none or another run's. */
export function resumeAfter(run: string, lastEventId: string | undefined): number {
  const m = /^(.+)\.(\d+)$/.exec(lastEventId ?? '');
  return m && m[1] === run ? Number(m[2]) : 0;
}

export class LiveMessageError extends Error {}

const seqOf = (x: Record<string, unknown>, bad: string[]): number => {
  if (!Number.isInteger(x.seq) || (x.seq as number) < 1) bad.push(`seq: expected a whole number ≥ 1, got ${JSON.stringify(x.seq)}`);
  return x.seq as number;
};
const text = (x: unknown, field: string, bad: string[]): string => {
  if (typeof x !== 'string') bad.push(`${field}: expected text`);
  return x as string;
};

function parseInfo(x: unknown, bad: string[]): LiveStreamInfo {
  if (!isObject(x)) return bad.push('info: expected an object'), { source: '', format: 'verl', eps: 0, reward: '', gate: null, behaviors: null };
  if (!FORMATS.includes(x.format as FormatId)) bad.push(`info.format: expected one of ${FORMATS.join(', ')}, got ${JSON.stringify(x.format)}`);
  if (typeof x.eps !== 'number' || !(x.eps >= 0 && x.eps < 1)) bad.push(`info.eps: expected a number in [0, 1), got ${JSON.stringify(x.eps)}`);
  if (x.gate !== null && typeof x.gate !== 'string') bad.push('info.gate: expected the gate text or null');
  const behaviors = x.behaviors ?? null;
  if (behaviors !== null && typeof behaviors !== 'string') bad.push('info.behaviors: expected the behavior rule file\'s text or null');
  return { source: text(x.source, 'info.source', bad), format: x.format as FormatId, eps: x.eps as number, reward: text(x.reward, 'info.reward', bad), gate: x.gate as string | null, behaviors: behaviors as string | null };
}

function parseBody(kind: LiveKind, x: Record<string, unknown>, bad: string[]): LiveMessage {
  if (kind === 'hello') {
    if (!Number.isInteger(x.since) || (x.since as number) < 0) bad.push(`since: expected a whole number ≥ 0, got ${JSON.stringify(x.since)}`);
    return { kind, run: text(x.run, 'run', bad), info: parseInfo(x.info, bad), since: x.since as number };
  }
  const seq = seqOf(x, bad);
  if (kind === 'frame') {
    const errors: FieldError[] = [];
    const frame = parseFrame(x.frame, 'frame', errors);
    bad.push(...errors.map((e) => `${e.field}: ${e.message}`));
    if (typeof x.replaced !== 'boolean') bad.push('replaced: expected true or false');
    return { kind, seq, frame, replaced: x.replaced as boolean };
  }
  if (kind === 'notice') {
    if (!Number.isInteger(x.total) || (x.total as number) < 1) bad.push(`total: expected a whole number ≥ 1, got ${JSON.stringify(x.total)}`);
    return { kind, seq, text: text(x.text, 'text', bad), total: x.total as number };
  }
  if (x.error !== null && typeof x.error !== 'string') bad.push('error: expected text or null');
  return { kind, seq, error: x.error as string | null };
}

/** One received event (its SSE event name and data) as a message; a bad one throws naming what is wrong. */
export function parseLiveMessage(kind: string, data: string): LiveMessage {
  if (!(LIVE_KINDS as readonly string[]).includes(kind)) throw new LiveMessageError(`the live stream sent an unknown event "${kind.slice(0, 40)}"`);
  let x: unknown;
  try {
    x = JSON.parse(data);
  } catch {
    throw new LiveMessageError(`the live stream's ${kind} event is not JSON`);
  }
  if (!isObject(x)) throw new LiveMessageError(`the live stream's ${kind} event is not a JSON object`);
  const bad: string[] = [];
  const m = parseBody(kind as LiveKind, x, bad);
  if (bad.length) throw new LiveMessageError(`the live stream's ${kind} event is not valid: ${bad.slice(0, 5).join('; ')}`);
  return m;
}
