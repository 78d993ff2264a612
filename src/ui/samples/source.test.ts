import { describe, expect, it } from 'vitest';
import type { SampleTrace } from '../../core/metrics';
import { servedPropose, servedSource, traceSource } from './source';

const trace = (state: string, behavior: string, queued: boolean, lossMask: number, ruleName: string, response: string): SampleTrace =>
  ({ session: 1, turn: 0, state, response, behavior, votes: [1], score: 1, reward: 0.5, hint: null, hintVotes: [], queued, lossMask, rule: 0, ruleName, fields: { reward: 0.5 }, advMean: 0, advMin: 0, advMax: 0, advantages: [] }) as unknown as SampleTrace;

describe('sample sources', () => {
  it("the lab's run: its traced samples by step, with the gate's rule and decision", async () => {
    const src = traceSource([
      { step: 3, records: [trace('s0', 'A', true, 1, 'keep all', 'A w1'), trace('s1', 'B', false, 0, 'drop no-next', 'B w2')] },
      { step: 4, records: [trace('s0', 'B', true, 0, 'mask zero', 'B w3')] },
    ]);
    expect(await src.facets()).toMatchObject({ steps: [3, 4], states: ['s0', 's1'], rules: ['keep all', 'drop no-next', 'mask zero'], decisions: ['trained', 'kept out of the loss', 'dropped'] });
    const dropped = await src.query({ decision: 'dropped' });
    expect(dropped.rows.map((r) => [r.step, r.state, r.behavior, r.rule, r.response])).toEqual([[3, 's1', 'B', 'drop no-next', 'B w2']]);
    const s4 = await src.query({ step: 4 });
    expect(s4.rows[0]).toMatchObject({ decision: 'kept out of the loss', reward: 0.5, prompt: 'state s0 (session 1, turn 0)' });
    expect(s4.rows[0].fields).toMatchObject({ reward: 0.5, votes: '1', score: 1 });
  });

  it('the watch: the query as parameters beside the stream, an error answer said with its text', async () => {
    const asked: string[] = [];
    const fake = (async (u: URL) => {
      asked.push(u.href);
      if (u.pathname.endsWith('/facets')) return new Response('null');
      return u.searchParams.get('step') === '9' ? new Response('step: nope\n', { status: 400 }) : new Response(JSON.stringify({ total: 0, page: 0, pageSize: 20, rows: [] }));
    }) as unknown as typeof fetch;
    const src = servedSource('http://127.0.0.1:6006/live/events', fake);
    expect(await src.facets()).toBeNull();
    expect(await src.query({ step: 2, state: 'a b', page: 1 })).toMatchObject({ total: 0 });
    await expect(src.query({ step: 9 })).rejects.toThrow('the watch answered 400: step: nope');
    expect(asked.slice(0, 2)).toEqual(['http://127.0.0.1:6006/live/samples/facets', 'http://127.0.0.1:6006/live/samples?step=2&state=a+b&page=1']);
  });

  it("the watch's proposal: the behavior and the name as parameters beside the stream, a refusal said with its text", async () => {
    const asked: string[] = [];
    const headers: unknown[] = [];
    const fake = (async (u: URL, init?: RequestInit) => {
      asked.push(u.href);
      headers.push(init?.headers);
      return u.searchParams.get('name') === 'a b' ? new Response('propose a rule: name: "a b" is not usable\n', { status: 400 }) : new Response(JSON.stringify({ proposal: { matched: 3 }, inRun: { own: 3, others: 9 } }));
    }) as unknown as typeof fetch;
    const propose = servedPropose('http://127.0.0.1:6006/live/events', fake);
    expect(await propose('c 1', 'steps&co')).toMatchObject({ proposal: { matched: 3 }, inRun: { own: 3, others: 9 } });
    await expect(propose('c1', 'a b')).rejects.toThrow('the watch answered 400: propose a rule: name: "a b" is not usable');
    expect(asked[0]).toBe('http://127.0.0.1:6006/live/propose?behavior=c+1&name=steps%26co');
    // the header no other site can send: the watch starts a proposal only with it
    expect(headers[0]).toMatchObject({ 'X-Invlab-Propose': '1' });
  });
});
