// `npm run watch --port N`: the built lab (dist/) and the followed run, served on 127.0.0.1 only
// (a user on a cluster tunnels the port: ssh -L N:127.0.0.1:N, as for TensorBoard). What is served:
//   GET /live/events   the run as Server-Sent Events (live-feed.ts: the hello, every event so far,
//                      then each new one; a reconnect's Last-Event-ID gets only what it missed);
//   GET /live/samples?step=&state=&behavior=&rule=&decision=&q=&page=&size=   a page of the run's
//                      samples as JSON, their text read from the followed files now (the rollout
//                      viewer of the page; src/core/import/browse/); GET /live/samples/facets: the
//                      values each filter can take;
//   GET /live/propose?behavior=B&name=N   a rule proposed for the discovered behavior B, named N,
//                      from the run's samples read back (src/core/import/browse/propose-run.ts): the
//                      page's "Name this behavior" (the page saves the rule file; nothing is written here).
//                      Only with the page's header (X-Invlab-Propose, which no other site can send) and
//                      one at a time: the work pauses often, so the follow goes on meanwhile;
//   GET / and /index.html   the lab's page, with <meta name="invlab-live" content="live/events">,
//                      which tells the page to open the import view on the streamed run;
//   GET <a file of the built lab>   that file.
// Nothing else: no directory listing, no path outside the build, only GET (the page writes nothing
// here), a Host header that names this machine's loopback (a DNS-rebinding page sends its own name),
// no cross-origin request (Origin, when sent, must be loopback too). Every response carries the lab's
// CSP (src/cli/csp.ts) and the cross-origin isolation headers its threaded WASM needs.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { ISOLATION_HEADERS, fileOf, sendFile } from '../browser/static-server';
import { LIVE_EVENTS, LIVE_META } from '../../core/import/follow/live-messages';
import { CSP_HEADER } from '../csp';
import type { LiveFeed } from './live-feed';
import { LIVE_PROPOSE, LIVE_PROPOSE_HEADER, LIVE_SAMPLES, LIVE_SAMPLE_FACETS, queryOfParams, type HeldProposal, type SampleFacets, type SamplePage, type SampleQuery } from '../../core/import/browse/index';
import { errorText } from '../../core/unknown';

/** The followed run's samples, as the sample endpoint asks them (RunSamples' browser). */
export interface SampleEndpoint {
  facets(): SampleFacets | null;
  query(q: SampleQuery): Promise<SamplePage>;
  /** A rule for a discovered behavior, named by the person (the page's "Name this behavior"). */
  propose(behavior: string, name: string): Promise<HeldProposal>;
}

/** Where the page finds the stream: the <meta> the server adds says so (relative to the page). */
const LIVE_EVENTS_PATH = `/${LIVE_EVENTS}`;

export const LIVE_HEADERS: Readonly<Record<string, string>> = {
  ...ISOLATION_HEADERS,
  'Content-Security-Policy': CSP_HEADER,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

/** SSE comment sent this often, so an idle tunnel or proxy keeps the stream open. */
const KEEPALIVE_MS = 15_000;
/** Bytes a live-events client may fall behind before it is dropped (it reconnects and resumes). */
export const STREAM_BEHIND = 4 << 20;

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** A Host (or an Origin's host) that names the loopback, on any port (a tunnel may map another one). */
export function loopbackHost(host: string | undefined): boolean {
  const m = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(host ?? '');
  return !!m && LOOPBACK_NAMES.has(m[1].toLowerCase()) && (m[2] === undefined || Number(m[2]) <= 65535);
}

function originAllowed(origin: string | undefined): boolean {
  if (origin === undefined) return true;
  try {
    const u = new URL(origin);
    return u.protocol === 'http:' && loopbackHost(u.host);
  } catch {
    return false;
  }
}

export interface LiveServer {
  /** e.g. `http://127.0.0.1:6006` (no trailing slash). */
  url: string;
  port: number;
  /** End the streams (each page has had every event), then stop. */
  close(): Promise<void>;
}

/** The built lab's page with the <meta> that opens it on the streamed run. */
function livePage(site: string): string {
  const file = join(site, 'index.html');
  if (!existsSync(file)) throw new Error(`${file}: the lab is not built: run \`npm run build\` (or give --site the folder of a build)`);
  const html = readFileSync(file, 'utf8');
  if (!html.includes('<head>')) throw new Error(`${file}: not the lab's page (no <head>)`);
  return html.replace('<head>', `<head>\n    <meta name="${LIVE_META}" content="${LIVE_EVENTS}" />`);
}

function refuse(res: ServerResponse, status: number, text: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...LIVE_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', ...extra }).end(`${text}\n`);
}

function sendJson(res: ServerResponse, value: unknown): void {
  const body = Buffer.from(JSON.stringify(value));
  res.writeHead(200, { ...LIVE_HEADERS, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length }).end(body);
}

/** The sample endpoint's answer: a page (bad parameters: 400 naming the parameter), or the facets. */
async function sampleAnswer(samples: SampleEndpoint | undefined, path: string, search: URLSearchParams, res: ServerResponse): Promise<void> {
  if (!samples) return refuse(res, 404, 'this watch keeps no samples');
  if (path === `/${LIVE_SAMPLE_FACETS}`) return sendJson(res, samples.facets());
  let q: SampleQuery;
  try {
    q = queryOfParams(search);
  } catch (e) {
    return refuse(res, 400, errorText(e));
  }
  try {
    sendJson(res, await samples.query(q));
  } catch (e) {
    refuse(res, 500, `the samples could not be read: ${errorText(e)}`);
  }
}

/** Longest refusal of a proposal sent (a message that quotes sample text is cut here). */
const PROPOSE_ERROR_CHARS = 500;

/**
 * A proposed rule: asked by the page (its header, else 403), one at a time (503 while one is made);
 * `behavior` and `name` are required (400 naming the one missing); a behavior or name the proposal
 * refuses is a 400 saying why.
 */
function proposer(samples: SampleEndpoint | undefined): (req: IncomingMessage, search: URLSearchParams, res: ServerResponse) => Promise<void> {
  let busy = false;
  return async (req, search, res) => {
    if (!samples) return refuse(res, 404, 'this watch keeps no samples');
    if (req.headers[LIVE_PROPOSE_HEADER.toLowerCase()] === undefined) return refuse(res, 403, `a rule is proposed for the lab's page only (it sends ${LIVE_PROPOSE_HEADER}): use "Name this behavior" there`);
    const [behavior, name] = [search.get('behavior'), search.get('name')];
    if (!behavior) return refuse(res, 400, 'behavior: expected the discovered behavior to name (?behavior=B&name=N)');
    if (name === null) return refuse(res, 400, 'name: expected the name to give the behavior (?behavior=B&name=N)');
    if (busy) return refuse(res, 503, 'another rule is being proposed: try again when it is done', { 'Retry-After': '2' });
    busy = true;
    try {
      sendJson(res, await samples.propose(behavior, name));
    } catch (e) {
      const text = errorText(e);
      refuse(res, 400, text.length > PROPOSE_ERROR_CHARS ? `${text.slice(0, PROPOSE_ERROR_CHARS)}…` : text);
    } finally {
      busy = false;
    }
  };
}

/** Serve the lab in `site` and the run of `feed` on 127.0.0.1:`port` (0: a free port), with its samples when given. */
export async function serveLive(site: string, port: number, feed: LiveFeed, samples?: SampleEndpoint): Promise<LiveServer> {
  const base = resolve(site);
  const page = Buffer.from(livePage(base));
  const streams = new Set<ServerResponse>();
  const proposeAnswer = proposer(samples);

  function stream(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, { ...LIVE_HEADERS, 'Content-Type': 'text/event-stream; charset=utf-8', Connection: 'keep-alive' });
    res.write('retry: 2000\n\n');
    streams.add(res);
    const last = req.headers['last-event-id'];
    // a client that stops reading would have every frame buffered for it: once it is STREAM_BEHIND
    // behind it is dropped (an EventSource reconnects and resumes from its Last-Event-ID)
    const send = (t: string) => (res.writableLength > STREAM_BEHIND ? res.destroy() : res.write(t));
    const off = feed.connect(Array.isArray(last) ? last[0] : last, send);
    const alive = setInterval(() => send(': keep-alive\n\n'), KEEPALIVE_MS);
    res.on('close', () => {
      clearInterval(alive);
      off();
      streams.delete(res);
    });
  }

  const server = createServer((req, res) => {
    if (!loopbackHost(req.headers.host)) return refuse(res, 403, 'Host not allowed: open this page as http://127.0.0.1:PORT/ or http://localhost:PORT/ (through a tunnel if the run is elsewhere)');
    if (!originAllowed(req.headers.origin)) return refuse(res, 403, 'cross-origin requests are not served');
    if (req.method !== 'GET') return refuse(res, 405, 'only GET: nothing is written here', { Allow: 'GET' });
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://x');
    } catch {
      return refuse(res, 400, 'bad request');
    }
    const path = url.pathname;
    if (path === LIVE_EVENTS_PATH) return stream(req, res);
    if (path === `/${LIVE_SAMPLES}` || path === `/${LIVE_SAMPLE_FACETS}`) return void sampleAnswer(samples, path, url.searchParams, res);
    if (path === `/${LIVE_PROPOSE}`) return void proposeAnswer(req, url.searchParams, res);
    if (path === '/' || path === '/index.html') {
      res.writeHead(200, { ...LIVE_HEADERS, 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': page.length }).end(page);
      return;
    }
    const found = fileOf(base, req.url ?? '/', false);
    if ('status' in found) return refuse(res, found.status, found.status === 404 ? 'not found' : 'refused');
    void sendFile(res, 'GET', found.file, LIVE_HEADERS);
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', (e: NodeJS.ErrnoException) => fail(new Error(e.code === 'EADDRINUSE' ? `--port ${port}: 127.0.0.1:${port} is in use (another watch, a TensorBoard?): pick another port` : `--port ${port}: ${e.message}`)));
    server.listen(port, '127.0.0.1', () => ok());
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    close: () =>
      new Promise<void>((ok) => {
        for (const res of streams) res.end();
        server.close(() => ok());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 2000).unref();
      }),
  };
}
