// The live server of `npm run watch --port` (serve.ts, live-feed.ts): it serves the built lab's page
// (with the <meta> that opens the streamed run) and its files, and the run as Server-Sent Events
// replayed on connect; and refuses everything else — other paths, directories, paths out of the
// build, every method but GET, a Host or Origin that is not the loopback.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLiveMessage, type LiveMessage } from '../../core/import/follow/live-messages';
import type { MetricsFrame } from '../../core/metrics';
import { CSP_HEADER } from '../csp';
import { LIVE_PROPOSE_HEADER } from '../../core/import/browse/index';
import { nodeRegexEngine } from '../../io/regex/node';
import { scaled } from '../../../tests/support/speed';
import { LiveFeed, NOTICES_KEPT } from './live-feed';
import { loopbackHost, serveLive, type LiveServer } from './serve';

const INFO = { source: 'folder /runs/x, followed by npm run watch', format: 'verl', eps: 0.05, reward: 'the score', gate: null, behaviors: null } as const;
const frame = (step: number, h = 1): MetricsFrame => ({ step, version: step, scalars: { 'support/behavior_entropy/math': h, 'import/samples': 8 }, series: {}, ratioEdges: [], perf: {}, changes: {}, trace: [] });

interface Got {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request with any method and headers (fetch may not set Host); the body as text. */
function get(s: LiveServer, path: string, opts: { method?: string; headers?: Record<string, string> } = {}): Promise<Got> {
  return new Promise((ok, fail) => {
    const r = request({ host: '127.0.0.1', port: s.port, path, method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => ok({ status: res.statusCode!, headers: res.headers, body }));
    });
    r.on('error', fail);
    r.end();
  });
}

/** Server-Sent Events read off an open stream until `until` says enough; then the stream is closed. */
function events(s: LiveServer, headers: Record<string, string>, until: (got: LiveMessage[]) => boolean): Promise<{ got: LiveMessage[]; ids: string[]; headers: Got['headers'] }> {
  return new Promise((ok, fail) => {
    const got: LiveMessage[] = [];
    const ids: string[] = [];
    const timer = setTimeout(() => fail(new Error(`stream: only ${JSON.stringify(kinds(got))} after 10 s`)), 10_000);
    const r = request({ host: '127.0.0.1', port: s.port, path: '/live/events', headers }, (res) => {
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        buf += c;
        let cut: number;
        while ((cut = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, cut).split('\n');
          buf = buf.slice(cut + 2);
          const field = (name: string) => block.find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2);
          const kind = field('event');
          if (!kind) continue; // retry:, keep-alive comments
          got.push(parseLiveMessage(kind, field('data')!));
          ids.push(field('id') ?? '');
        }
        if (until(got)) {
          clearTimeout(timer);
          r.destroy();
          ok({ got, ids, headers: res.headers });
        }
      });
      res.on('end', () => ok({ got, ids, headers: res.headers }));
    });
    r.on('error', (e) => (got.length ? undefined : fail(e)));
    r.end();
  });
}

const kinds = (ms: LiveMessage[]) => ms.map((m) => (m.kind === 'frame' ? `frame ${m.frame.step}${m.replaced ? ' replaced' : ''}` : m.kind));

describe('npm run watch --port: the live server', () => {
  let site: string;
  let feed: LiveFeed;
  let s: LiveServer;
  beforeAll(async () => {
    site = mkdtempSync(join(tmpdir(), 'invlab-live-'));
    mkdirSync(join(site, 'assets'));
    writeFileSync(join(site, 'index.html'), '<!doctype html><html><head><title>lab</title></head><body></body></html>');
    writeFileSync(join(site, 'assets', 'main.js'), 'export {};');
    writeFileSync(join(site, 'assets', 'ort.wasm'), new Uint8Array([0, 97, 115, 109]));
    mkdirSync(join(site, 'examples'));
    writeFileSync(join(site, 'examples', 'index.html'), 'an index page of a folder');
    writeFileSync(join(tmpdir(), 'invlab-live-outside.txt'), 'outside');
    feed = new LiveFeed(INFO, [frame(1), frame(2)]);
    s = await serveLive(site, 0, feed);
  });
  afterAll(async () => {
    await s.close();
    rmSync(site, { recursive: true, force: true });
  });

  it('listens on 127.0.0.1 only', () => {
    expect(s.url).toBe(`http://127.0.0.1:${s.port}`);
  });

  it("serves the lab's page with the live <meta>, the CSP and the isolation headers", async () => {
    for (const path of ['/', '/index.html', '/?backend=wasm']) {
      const r = await get(s, path);
      expect(r.status, path).toBe(200);
      expect(r.body).toContain('<head>\n    <meta name="invlab-live" content="live/events" />');
      expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(r.headers['content-security-policy']).toBe(CSP_HEADER);
      expect(r.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(r.headers['cross-origin-embedder-policy']).toBe('require-corp');
      expect(r.headers['x-content-type-options']).toBe('nosniff');
    }
    const js = await get(s, '/assets/main.js');
    expect([js.status, js.body, js.headers['content-type'], js.headers['content-security-policy']]).toEqual([200, 'export {};', 'text/javascript; charset=utf-8', CSP_HEADER]);
    expect((await get(s, '/assets/ort.wasm')).headers['content-type']).toBe('application/wasm');
  });

  it('refuses every other path: no listing, no directory index, nothing outside the build', async () => {
    const status = async (p: string) => (await get(s, p)).status;
    expect(await status('/assets')).toBe(404);
    expect(await status('/assets/')).toBe(404);
    expect(await status('/examples/')).toBe(404); // a folder's index.html is not served for the folder
    expect(await status('/nope.js')).toBe(404);
    expect(await status('/live')).toBe(404);
    expect(await status('/live/events/x')).toBe(404);
    expect(await status('/..%2finvlab-live-outside.txt')).toBe(403);
    expect(await status('/%2e%2e/invlab-live-outside.txt')).toBe(404); // the URL's own ".." resolves inside: /invlab-live-outside.txt, not there
    expect(await status('/%E0%A4%A')).toBe(400);
  });

  it('refuses every method but GET, and writes nothing', async () => {
    const before = readdirSync(site, { recursive: true }).sort();
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS']) {
      for (const path of ['/', '/assets/main.js', '/live/events', '/new.txt']) {
        const r = await get(s, path, { method, headers: { 'Content-Type': 'text/plain' } });
        expect(r.status, `${method} ${path}`).toBe(405);
        expect(r.headers.allow).toBe('GET');
      }
    }
    expect(readdirSync(site, { recursive: true }).sort()).toEqual(before);
  });

  it('answers only a Host of the loopback (DNS rebinding) and no cross-origin request', async () => {
    const port = String(s.port);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'localhost:16006', `[::1]:${port}`, 'LOCALHOST'])
      expect((await get(s, '/', { headers: { Host: host } })).status, host).toBe(200);
    for (const host of [`evil.example:${port}`, 'evil.example', '127.0.0.1.evil.example', `192.168.1.5:${port}`, 'localhost.evil.example:80', `0.0.0.0:${port}`]) {
      expect((await get(s, '/', { headers: { Host: host } })).status, host).toBe(403);
      expect((await get(s, '/live/events', { headers: { Host: host } })).status, host).toBe(403);
    }
    expect((await get(s, '/live/events', { headers: { Origin: 'http://evil.example' } })).status).toBe(403);
    expect((await get(s, '/', { headers: { Origin: `http://localhost:${port}` } })).status).toBe(200);
    // no Host at all (HTTP/1.0)
    const raw = await new Promise<string>((ok) => {
      const c = connect(s.port, '127.0.0.1', () => c.end('GET / HTTP/1.0\r\n\r\n'));
      let t = '';
      c.on('data', (b) => (t += b));
      c.on('end', () => ok(t));
    });
    expect(raw).toMatch(/^HTTP\/1\.1 403/);
    expect(loopbackHost('127.0.0.1:99999')).toBe(false);
  });

  it('streams the run: on connect the hello and every event so far, then each new one; a reconnect gets only what it missed', async () => {
    feed.notice('2.jsonl: a line cut in half');
    // a page opened late: everything from the start
    const first = await events(s, {}, (g) => g.length >= 4);
    expect(first.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(first.headers['content-security-policy']).toBe(CSP_HEADER);
    expect(kinds(first.got)).toEqual(['hello', 'frame 1', 'frame 2', 'notice']);
    expect(first.got[0]).toEqual({ kind: 'hello', run: feed.run, info: INFO, since: 0 });
    expect(first.ids).toEqual(['', `${feed.run}.1`, `${feed.run}.2`, `${feed.run}.3`]);
    expect(first.got[1]).toEqual({ kind: 'frame', seq: 1, frame: frame(1), replaced: false });
    expect(first.got[3]).toEqual({ kind: 'notice', seq: 3, text: '2.jsonl: a line cut in half', total: 1 });
    // a page connected while new events happen gets them as they happen
    let caughtUp: () => void = () => {};
    const connected = new Promise<void>((r) => (caughtUp = r));
    const live = events(s, {}, (g) => (g.length >= 4 && caughtUp(), g.length >= 7));
    await connected; // it has the four events so far: what follows reaches it live
    feed.frame(frame(3), false);
    feed.frame(frame(2, 0.5), true);
    feed.frame({ ...frame(4), scalars: { ...frame(4).scalars, 'esr/effective_rate': NaN } }, false);
    const got = (await live).got;
    expect(kinds(got)).toEqual(['hello', 'frame 1', 'frame 2', 'notice', 'frame 3', 'frame 2 replaced', 'frame 4']);
    expect(got[5]).toMatchObject({ seq: 5, frame: frame(2, 0.5) });
    expect(Number.isNaN((got[6] as { frame: MetricsFrame }).frame.scalars['esr/effective_rate'])).toBe(true);
    // a reconnect sends the last id it had: only the later events come
    const again = await events(s, { 'Last-Event-ID': `${feed.run}.4` }, (g) => g.length >= 3);
    expect(kinds(again.got)).toEqual(['hello', 'frame 2 replaced', 'frame 4']);
    expect(again.got[0]).toMatchObject({ since: 4 });
    // an id of another watch (restarted): the whole run again, from 0
    const other = await events(s, { 'Last-Event-ID': 'a1b2c3.4' }, (g) => g.length >= 7);
    expect(other.got[0]).toMatchObject({ since: 0 });
    expect(kinds(other.got)).toEqual(kinds(got));
    // the end: sent, and nothing after it
    feed.end();
    feed.frame(frame(9), false);
    const done = await events(s, { 'Last-Event-ID': `${feed.run}.5` }, (g) => g.length >= 3);
    expect(kinds(done.got)).toEqual(['hello', 'frame 4', 'end']);
    expect(done.got[2]).toEqual({ kind: 'end', seq: 7, error: null });
  });
});

describe('the live feed', () => {
  it(`keeps every frame and the latest ${NOTICES_KEPT} notices, with the count of all`, () => {
    const feed = new LiveFeed(INFO, [frame(1)]);
    for (let i = 1; i <= NOTICES_KEPT + 50; i++) feed.notice(`note ${i}`);
    feed.frame(frame(2), false);
    const sent: LiveMessage[] = [];
    feed.connect(undefined, (t) => {
      const kind = /^event: (\w+)$/m.exec(t)![1];
      sent.push(parseLiveMessage(kind, /^data: (.*)$/m.exec(t)![1]));
    });
    const notices = sent.filter((m) => m.kind === 'notice');
    expect(notices).toHaveLength(NOTICES_KEPT);
    expect(notices[0]).toMatchObject({ text: 'note 51', total: 51 });
    expect(notices.at(-1)).toMatchObject({ text: `note ${NOTICES_KEPT + 50}`, total: NOTICES_KEPT + 50 });
    expect(kinds(sent).filter((k) => k.startsWith('frame'))).toEqual(['frame 1', 'frame 2']);
  });

  it('a build that is missing is said, with how to build it', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'invlab-live-empty-'));
    await expect(serveLive(empty, 0, new LiveFeed(INFO))).rejects.toThrow(/the lab is not built: run `npm run build`/);
    rmSync(empty, { recursive: true });
  });
});

describe('the sample endpoint', () => {
  it("answers a page of the followed run's samples read from its files now, the facets, a bad parameter by name; only on the loopback", async () => {
    const { nodeFolder } = await import('./node-fs');
    const { RunSamples, SampleTextReader, followedFiles } = await import('../../core/import/browse/index');
    const site = mkdtempSync(join(tmpdir(), 'invlab-live-s-'));
    writeFileSync(join(site, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
    const run = mkdtempSync(join(tmpdir(), 'invlab-live-run-'));
    const lines = [0, 1, 2].map((i) => JSON.stringify({ input: `prompt ${i}`, output: `answer ${i}`, score: i, step: 1 }));
    writeFileSync(join(run, '1.jsonl'), `${lines.join('\n')}\n`);
    const reader = new SampleTextReader('verl', followedFiles(nodeFolder(run), () => Date.now()));
    const samples = new RunSamples({ read: (f, i) => reader.read(f, i) });
    [0, 1, 2].forEach((i) => samples.add({ step: 1, file: '1.jsonl', line: i + 1, reward: i }, 'math', i === 1 ? 'list' : 'prose'));
    const served = await serveLive(site, 0, new LiveFeed(INFO), { facets: () => samples.browser.facets(), query: (q) => samples.browser.query(q), propose: () => Promise.reject(new Error('not asked')) });
    const bare = await serveLive(site, 0, new LiveFeed(INFO));
    try {
      const r = await get(served, '/live/samples?step=1&behavior=prose&size=1&page=1');
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
      const page = JSON.parse(r.body);
      expect(page).toMatchObject({ total: 2, page: 1, pageSize: 1 });
      expect(page.rows.map((s: { prompt: string; response: string; index: number }) => [s.prompt, s.response, s.index])).toEqual([['prompt 2', 'answer 2', 2]]);
      expect(JSON.parse((await get(served, '/live/samples/facets')).body)).toMatchObject({ steps: [1], states: ['math'], behaviors: ['list', 'prose'] });
      const bad = await get(served, '/live/samples?step=x');
      expect([bad.status, bad.body]).toEqual([400, 'step: expected a non-negative integer, got "x"\n']);
      expect((await get(served, '/live/samples', { headers: { Host: 'evil.example:80' } })).status).toBe(403);
      expect((await get(served, '/live/samples', { method: 'POST' })).status).toBe(405);
      expect((await get(bare, '/live/samples')).status).toBe(404);
    } finally {
      await served.close();
      await bare.close();
      rmSync(site, { recursive: true, force: true });
      rmSync(run, { recursive: true, force: true });
    }
  });

  /** A watch of a run of one step whose samples answer `answers` (behavior c1 the odd ones, c2 the others), proposing with the import's engine. */
  async function proposingWatch(answers: readonly string[]): Promise<{ served: LiveServer; site: string; run: string; close(): Promise<void> }> {
    const { nodeFolder } = await import('./node-fs');
    const { RunSamples, SampleTextReader, followedFiles, proposeForBehavior } = await import('../../core/import/browse/index');
    const site = mkdtempSync(join(tmpdir(), 'invlab-live-p-'));
    writeFileSync(join(site, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
    const run = mkdtempSync(join(tmpdir(), 'invlab-live-prun-'));
    writeFileSync(join(run, '1.jsonl'), `${answers.map((output, i) => JSON.stringify({ input: `tell me about ${TOPICS[i % TOPICS.length]}`, output, score: 0, step: 1 })).join('\n')}\n`);
    const reader = new SampleTextReader('verl', followedFiles(nodeFolder(run), () => Date.now()));
    const samples = new RunSamples({ read: (f, i) => reader.read(f, i) });
    answers.forEach((_, i) => samples.add({ step: 1, file: '1.jsonl', line: i + 1, reward: 0 }, 'math', i % 2 ? 'c1' : 'c2'));
    const served = await serveLive(site, 0, new LiveFeed(INFO), { facets: () => samples.browser.facets(), query: (q) => samples.browser.query(q), propose: (b, n) => proposeForBehavior(samples, b, n, nodeRegexEngine()) });
    return {
      served,
      site,
      run,
      close: async () => {
        await served.close();
        rmSync(site, { recursive: true, force: true });
        rmSync(run, { recursive: true, force: true });
      },
    };
  }
  const TOPICS = ['rivers', 'tides', 'maps', 'ovens', 'bells', 'kites'];
  const stepsAnswer = (i: number) => (i % 2 ? `Here are the steps:\n1) look at ${TOPICS[i]}\n2) check it\nDone.` : `${TOPICS[i]} are fine as they are.`);
  const PAGE = { [LIVE_PROPOSE_HEADER]: '1' };

  it('proposes a rule for a discovered behavior from the samples read back, says why it cannot, and writes nothing', async () => {
    const { served, site, run, close } = await proposingWatch(TOPICS.map((_, i) => stepsAnswer(i)));
    const bare = await serveLive(site, 0, new LiveFeed(INFO));
    try {
      const r = await get(served, '/live/propose?behavior=c1&name=numbered-steps', { headers: PAGE });
      expect(r.status, r.body).toBe(200);
      const p = JSON.parse(r.body);
      expect(p.inRun).toEqual({ own: 3, others: 3 });
      expect(p.proposal).toMatchObject({ rule: { label: 'numbered-steps' }, matched: 3, total: 3, othersMatched: 0, othersTotal: 3 });
      // the rule read the responses (the steps' frame), not the prompts' topics
      expect(p.proposal.rule.responseRegex).not.toMatch(/rivers|tides|maps|ovens|bells|kites/);
      const refused = async (path: string) => {
        const x = await get(served, path, { headers: PAGE });
        return [x.status, x.body.trim()];
      };
      expect(await refused('/live/propose?behavior=c1')).toEqual([400, 'name: expected the name to give the behavior (?behavior=B&name=N)']);
      expect(await refused('/live/propose?name=x')).toEqual([400, 'behavior: expected the discovered behavior to name (?behavior=B&name=N)']);
      expect(await refused('/live/propose?behavior=nope&name=x')).toEqual([400, 'the run has no sample of the behavior "nope"']);
      expect((await refused('/live/propose?behavior=c1&name=two%20words'))[1]).toMatch(/^propose a rule: name: "two words" is not usable in metric keys/);
      expect((await get(served, '/live/propose?behavior=c1&name=x', { method: 'POST' })).status).toBe(405);
      expect((await get(bare, '/live/propose?behavior=c1&name=x', { headers: PAGE })).status).toBe(404);
      expect(readdirSync(run)).toEqual(['1.jsonl']);
    } finally {
      await bare.close();
      await close();
    }
  });

  it("starts no proposal for a request without the page's header (another site's no-cors GET cannot send one)", async () => {
    const { served, close } = await proposingWatch(TOPICS.map((_, i) => stepsAnswer(i)));
    try {
      for (const headers of [{}, { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'no-cors' }] as Record<string, string>[]) {
        const r = await get(served, '/live/propose?behavior=c1&name=numbered-steps', { headers });
        expect([r.status, r.body.trim()]).toEqual([403, `a rule is proposed for the lab's page only (it sends ${LIVE_PROPOSE_HEADER}): use "Name this behavior" there`]);
      }
    } finally {
      await close();
    }
  });

  it('three responses of 100,000 newlines: the proposal comes back soon, and the watch answers other requests while it is made', async () => {
    const { served, close } = await proposingWatch([...TOPICS.map((_, i) => stepsAnswer(i)), ...[0, 1, 2].map(() => '\n'.repeat(100_000))]);
    try {
      const t0 = performance.now();
      let done = 0;
      const proposed = get(served, '/live/propose?behavior=c1&name=numbered-steps', { headers: PAGE }).finally(() => (done = performance.now()));
      const answered: number[] = []; // how long each request made while the proposal runs took
      while (!done) {
        const t = performance.now();
        expect((await get(served, '/live/samples/facets')).status).toBe(200);
        if (!done) answered.push(performance.now() - t);
      }
      const r = await proposed;
      expect(r.status, r.body).toBe(200);
      expect(JSON.parse(r.body).proposal).toMatchObject({ total: 4, othersTotal: 5 }); // one of the newline runs is c1's (the odd lines)
      expect(done - t0).toBeLessThan(scaled(15_000)); // was 110 s: the list shapes read every newline's run again
      expect(answered.length).toBeGreaterThanOrEqual(1);
      expect(Math.max(...answered)).toBeLessThan(scaled(2000));
    } finally {
      await close();
    }
  }, scaled(30_000));
});
