// The live stream's messages (live-messages.ts): what the server writes the page reads back as it
// was (frames bit for bit, non-finite numbers included), and a bad message is refused naming what is
// wrong; a reconnect's Last-Event-ID resumes only within its own run.
import { describe, expect, it } from 'vitest';
import { importExample } from '../../../../tests/support/example-import';
import { frameLine, frameOfLine } from './frame-line';
import { LiveMessageError, liveEventText, parseLiveMessage, resumeAfter, type LiveMessage } from './live-messages';

const INFO = { source: 'folder x', format: 'verl', eps: 0.05, reward: 'the score', gate: 'keep if reward > 0', behaviors: '{"rules": [{"label": "list", "responseRegex": "^1\\\\)"}]}' } as const;

/** The event's name and data as the page's EventSource hands them over. */
function received(text: string): { kind: string; data: string; id: string | null } {
  expect(text.endsWith('\n\n')).toBe(true);
  const lines = text.slice(0, -2).split('\n');
  const field = (n: string) => lines.find((l) => l.startsWith(`${n}: `))?.slice(n.length + 2) ?? null;
  expect(lines.filter((l) => l.startsWith('data: '))).toHaveLength(1); // one line of data: no newline inside
  return { kind: field('event')!, data: field('data')!, id: field('id') };
}

describe('live stream messages', () => {
  it("round trip: the example run's frames, a hello, a notice with a newline, an end with an error", async () => {
    const { frames } = await importExample('verl');
    const ms: LiveMessage[] = [
      { kind: 'hello', run: 'r1', info: INFO, since: 0 },
      ...frames.map((frame, i) => ({ kind: 'frame' as const, seq: i + 1, frame, replaced: i === 4 })),
      { kind: 'frame', seq: 30, frame: { ...frames[0], scalars: { 'esr/effective_rate': NaN, 'import/samples': Infinity, 'support/token_entropy': -Infinity } }, replaced: false },
      { kind: 'notice', seq: 31, text: 'line one\nline two', total: 7 },
      { kind: 'end', seq: 32, error: 'permission denied' },
    ];
    for (const m of ms) {
      const r = received(liveEventText('r1', m));
      expect(r.id).toBe(m.kind === 'hello' ? null : `r1.${m.seq}`);
      expect(parseLiveMessage(r.kind, r.data)).toEqual(m);
    }
  });

  it.each([
    ['frame', '{"seq":1,"replaced":false}', /frame: expected a metrics frame object/],
    ['frame', '{"seq":0,"replaced":false,"frame":{"step":1,"version":1,"scalars":{"a":1},"series":{},"ratioEdges":[]}}', /seq: expected a whole number ≥ 1/],
    ['frame', '{"seq":1,"replaced":"no","frame":{"step":1,"version":1,"scalars":{"a":"x"},"series":{},"ratioEdges":[]}}', /frame\.scalars\.a: expected a number.*replaced: expected true or false/],
    ['hello', '{"run":"r","since":0,"info":{"source":"s","format":"wandb","eps":2,"reward":"r","gate":null}}', /info\.format: expected one of openclaw, verl, trl, jsonl, got "wandb"; info\.eps: expected a number in \[0, 1\)/],
    ['hello', '{"run":"r","since":0,"info":{"source":"s","format":"verl","eps":0,"reward":"r","gate":null,"behaviors":{"rules":[]}}}', /info\.behaviors: expected the behavior rule file's text or null/],
    ['hello', '{"run":"r","since":-1}', /since: expected a whole number ≥ 0.*info: expected an object/],
    ['notice', '{"seq":2,"text":5,"total":0}', /total: expected a whole number ≥ 1.*text: expected text/],
    ['end', '{"seq":3,"error":5}', /error: expected text or null/],
    ['end', '[1]', /not a JSON object/],
    ['end', '{"seq":', /not JSON/],
    ['reset', '{}', /unknown event "reset"/],
  ])('refuses a bad %s event: %s', (kind, data, why) => {
    expect(() => parseLiveMessage(kind, data)).toThrow(LiveMessageError);
    expect(() => parseLiveMessage(kind, data)).toThrow(why);
  });

  it('a hello without the behavior rules (all discovered) reads as null', () => {
    const m = parseLiveMessage('hello', '{"run":"r","since":0,"info":{"source":"s","format":"verl","eps":0,"reward":"r","gate":null}}');
    expect(m.kind === 'hello' && m.info.behaviors).toBe(null);
  });

  it("resumes after the Last-Event-ID of the same run only", () => {
    expect(resumeAfter('a1', 'a1.17')).toBe(17);
    expect(resumeAfter('a1', 'b2.17')).toBe(0);
    expect(resumeAfter('a1', undefined)).toBe(0);
    expect(resumeAfter('a1', 'a1.')).toBe(0);
    expect(resumeAfter('a1', 'a1.x')).toBe(0);
  });

  it("a frames-file line reads back as the import's frame (what a resumed --port serves first)", async () => {
    const { frames } = await importExample('verl');
    for (const f of frames) expect(frameOfLine(frameLine(f))).toEqual(f);
    expect(frameOfLine('{"step":3,"a":1,"b":[1,2]}')).toEqual({ step: 3, version: 3, scalars: { a: 1 }, series: { b: [1, 2] }, ratioEdges: [], perf: {}, changes: {}, trace: [] });
    expect(frameOfLine('{"step":3,"a":"x"}')).toBeNull();
    expect(frameOfLine('{"step":3,"a":1')).toBeNull();
  });
});
