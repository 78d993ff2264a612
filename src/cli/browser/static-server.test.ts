import { mkdtempSync, mkdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer, get as httpGet, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { abortDownloads, canCountHandles, handlesSettle, openHandles } from '../../../tests/support/aborted-downloads';
import { scaled } from '../../../tests/support/speed';
import { sendFile, serveStatic, type StaticServer } from './static-server';

/** Big enough that the loopback's buffers cannot take it all before the client goes. */
const BIG = 8 << 20;

/** A GET whose body is read only when `read` is called (the response is paused until then). */
function pausedGet(url: string): Promise<{ res: IncomingMessage; read(): Promise<number> }> {
  return new Promise((ok, fail) => {
    httpGet(url, { agent: false }, (res) => {
      res.pause();
      ok({
        res,
        read: () =>
          new Promise<number>((done, bad) => {
            let n = 0;
            res.on('data', (b: Buffer) => (n += b.length));
            res.on('end', () => done(n));
            res.on('error', bad);
            res.resume();
          }),
      });
    }).once('error', fail);
  });
}

describe('static server', () => {
  let dir: string;
  let s: StaticServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'invlab-srv-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><p>hi</p>');
    writeFileSync(join(dir, 'assets', 'a.wasm'), new Uint8Array([0, 97, 115, 109]));
    writeFileSync(join(dir, 'assets', 'b.mjs'), 'export {};');
    writeFileSync(join(dir, 'assets', 'c.js'), 'export {};');
    writeFileSync(join(dir, 'big.bin'), new Uint8Array(BIG));
    s = await serveStatic(dir);
  });
  afterAll(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('listens on loopback only', () => {
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it.each([
    ['/', 'text/html'],
    ['/assets/a.wasm', 'application/wasm'],
    ['/assets/b.mjs', 'text/javascript'],
    ['/assets/c.js', 'text/javascript'],
  ])('serves %s as %s with COOP/COEP', async (path, mime) => {
    const r = await fetch(s.url + path);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain(mime);
    expect(r.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(r.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
  });

  it('returns 404 for missing files and refuses to leave the root', async () => {
    expect((await fetch(s.url + '/nope.js')).status).toBe(404);
    expect((await fetch(s.url + '/..%2f..%2f..%2fetc%2fpasswd')).status).toBe(403);
  });

  it.skipIf(!canCountHandles)(
    'thousands of downloads dropped after their first bytes: every one served, the open handles back to their count before',
    async () => {
      await abortDownloads(Number(new URL(s.url).port), '/big.bin', 32); // sockets and streams warmed up
      const start = await handlesSettle(openHandles(), 0);
      const seen = await abortDownloads(Number(new URL(s.url).port), '/big.bin', 3000);
      expect([...seen]).toEqual([['HTTP/1.1 200 OK', 3000]]);
      expect(await handlesSettle(start, scaled(5000))).toBeLessThanOrEqual(start);
      expect((await fetch(s.url + '/')).status).toBe(200);
    },
    scaled(60_000),
  );

  it('a client that stops reading is dropped after the stall time: its socket and its file are closed, the server stays up', async () => {
    const stalled = join(dir, 'stalled.bin');
    writeFileSync(stalled, new Uint8Array(4 * BIG));
    let dropped: () => void = () => undefined;
    const closed = new Promise<void>((ok) => (dropped = ok));
    const bare = createServer((_req, res) => {
      res.once('close', () => dropped());
      void sendFile(res, 'GET', stalled, {}, 300);
    });
    await new Promise<void>((ok) => bare.listen(0, '127.0.0.1', ok));
    try {
      const before = openHandles();
      const got = await pausedGet(`http://127.0.0.1:${(bare.address() as AddressInfo).port}/`);
      // the client reads nothing: the socket's buffers fill, nothing moves for 300 ms, the server drops it
      const t0 = Date.now();
      await closed;
      expect(Date.now() - t0).toBeLessThan(scaled(10_000));
      got.res.destroy();
      if (canCountHandles) expect(await handlesSettle(before, scaled(5000))).toBeLessThanOrEqual(before);
      expect((await fetch(s.url + '/')).status).toBe(200);
    } finally {
      await new Promise((ok) => bare.close(ok));
    }
  }, scaled(30_000));

  it('a file removed after it was found is a 404 (the process stays up); removed while it is sent, it is sent whole', async () => {
    // found (fileOf) then gone before it is opened: sendFile alone, on a path that is no more
    const gone = join(dir, 'gone.js');
    writeFileSync(gone, 'x');
    unlinkSync(gone);
    const bare = createServer((_req, res) => void sendFile(res, 'GET', gone, { 'X-Test': '1' }));
    await new Promise<void>((ok) => bare.listen(0, '127.0.0.1', ok));
    try {
      const r = await fetch(`http://127.0.0.1:${(bare.address() as AddressInfo).port}/`);
      expect([r.status, r.headers.get('x-test'), await r.text()]).toEqual([404, '1', 'not found']);
    } finally {
      await new Promise((ok) => bare.close(ok));
    }
    // removed mid-download: the open file is read to its end
    const doomed = join(dir, 'doomed.bin');
    writeFileSync(doomed, new Uint8Array(BIG));
    const before = openHandles();
    const got = await pausedGet(s.url + '/doomed.bin');
    unlinkSync(doomed);
    expect(got.res.statusCode).toBe(200);
    expect(await got.read()).toBe(BIG);
    if (canCountHandles) expect(await handlesSettle(before, scaled(5000))).toBeLessThanOrEqual(before);
    expect((await fetch(s.url + '/doomed.bin')).status).toBe(404);
  });
});
