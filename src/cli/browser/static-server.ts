/**
 * Tiny static file server for the built site (`dist/`): loopback only, COOP/COEP headers
 * (threaded WASM needs crossOriginIsolated), correct MIME types for .wasm/.mjs/.js.
 * Files are sent by `sendFile` through node:stream's pipeline, which closes the file when the client
 * goes away (sirv, which `vite preview` uses, pipes without that and leaks a handle per aborted
 * download: docs/watch.md).
 */
import { statSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { pipeline } from 'node:stream';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';

export const MIME: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.onnx': 'application/octet-stream',
  '.bin': 'application/octet-stream',
};

export const ISOLATION_HEADERS: Readonly<Record<string, string>> = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

export interface StaticServer {
  /** e.g. `http://127.0.0.1:43123` (no trailing slash). */
  url: string;
  close(): Promise<void>;
}

/**
 * Serve `root` on 127.0.0.1 at a free port (or `port`); `headers` go on every response (e.g. a CSP).
 * `unref`: the server does not keep the process alive (a server shared by the tests of a process).
 */
export async function serveStatic(root: string, port = 0, headers: Readonly<Record<string, string>> = {}, opts: { unref?: boolean } = {}): Promise<StaticServer> {
  const base = resolve(root);
  const sent = { ...ISOLATION_HEADERS, ...headers };
  const server: Server = createServer((req, res) => {
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') {
      res.writeHead(405, sent).end();
      return;
    }
    const found = fileOf(base, req.url ?? '/', true);
    if ('status' in found) {
      res.writeHead(found.status, { ...sent, 'Content-Type': 'text/plain' }).end(found.status === 404 ? 'not found' : '');
      return;
    }
    void sendFile(res, method, found.file, sent);
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => ok());
  });
  if (opts.unref) server.unref();
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/**
 * The file under `base` a request URL names, or the status refusing it: 400 for a path that cannot be
 * decoded, 403 for one that leaves `base`, 404 for nothing there (a directory is its index.html with
 * `indexes`, else nothing: no listing either way).
 */
export function fileOf(base: string, url: string, indexes: boolean): { file: string } | { status: 400 | 403 | 404 } {
  let path: string;
  try {
    path = decodeURIComponent(new URL(url, 'http://x').pathname);
  } catch {
    return { status: 400 };
  }
  let file = normalize(join(base, path));
  if (file !== base && !file.startsWith(base + sep)) return { status: 403 };
  let st = statOrNull(file);
  if (st?.isDirectory() && indexes) {
    file = join(file, 'index.html');
    st = statOrNull(file);
  }
  return st?.isFile() ? { file } : { status: 404 };
}

/**
 * Send a file (its MIME type by extension, never cached); HEAD sends the headers only. The file is
 * opened first and its size read from the open handle, so a file removed or replaced since it was
 * found is a 404 or the file as opened, never a crash; the pipeline closes the handle however the
 * response ends (done, client gone, read error).
 */
/** A download whose client has read nothing for this long is dropped (its socket and its file closed). */
export const STALL_MS = 30_000;

export async function sendFile(res: ServerResponse, method: string, file: string, headers: Readonly<Record<string, string>>, stallMs = STALL_MS): Promise<void> {
  let handle: FileHandle;
  let size: number;
  try {
    handle = await open(file, 'r');
  } catch {
    return notFound(res, headers);
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new Error('not a file');
    size = st.size;
  } catch {
    await handle.close().catch(() => undefined);
    return notFound(res, headers);
  }
  if (res.destroyed || method === 'HEAD' || size === 0) {
    await handle.close().catch(() => undefined);
    if (!res.destroyed) res.writeHead(200, fileHeaders(file, size, headers)).end();
    return;
  }
  res.writeHead(200, fileHeaders(file, size, headers));
  // a client that stops reading holds a socket and a file: no progress for stallMs ends both (pipeline closes the file)
  res.setTimeout(stallMs, () => res.destroy());
  // at most the size announced, should the file grow while it is read; cut short, should it shrink
  const body = handle.createReadStream({ start: 0, end: size - 1 });
  pipeline(body, res, (err) => {
    if (!err && body.bytesRead < size) res.destroy();
  });
}

function fileHeaders(file: string, size: number, headers: Readonly<Record<string, string>>): Record<string, string | number> {
  return { ...headers, 'Content-Type': MIME[extname(file).toLowerCase()] ?? 'application/octet-stream', 'Content-Length': size, 'Cache-Control': 'no-store' };
}

function notFound(res: ServerResponse, headers: Readonly<Record<string, string>>): void {
  if (!res.destroyed) res.writeHead(404, { ...headers, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end('not found');
}

function statOrNull(p: string): Stats | null {
  try {
    return statSync(p);
  } catch {
    return null;
  }
}
