import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveStatic, type StaticServer } from './static-server';

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
});
