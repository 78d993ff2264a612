/**
 * The soak of a served file (src/cli/browser/static-server.ts `sendFile`): clients on 127.0.0.1 that
 * ask for a file and go away after its first bytes, and the count of this process's open handles
 * (/proc/self/fd: the servers under test run in the test's own process).
 */
import { existsSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';

/** Whether open handles can be counted here (Linux). */
export const canCountHandles = existsSync('/proc/self/fd');

export const openHandles = (): number => readdirSync('/proc/self/fd').length;

/** One GET of `path` on 127.0.0.1:`port`, dropped as soon as the first bytes of the answer come; resolves with its status line. */
function abortedGet(port: number, path: string): Promise<string> {
  return new Promise((ok, fail) => {
    const s = connect(port, '127.0.0.1', () => s.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`));
    s.once('data', (b) => {
      s.destroy();
      ok(b.toString('latin1').split('\r\n')[0]);
    });
    s.once('error', fail);
  });
}

/** `count` aborted downloads, `parallel` at a time; the status lines seen, counted. */
export async function abortDownloads(port: number, path: string, count: number, parallel = 32): Promise<Map<string, number>> {
  const seen = new Map<string, number>();
  for (let done = 0; done < count; done += parallel) {
    const lines = await Promise.all(Array.from({ length: Math.min(parallel, count - done) }, () => abortedGet(port, path)));
    for (const l of lines) seen.set(l, (seen.get(l) ?? 0) + 1);
  }
  return seen;
}

/** The open handle count once it is back to `start` or below, or the count at `limitMs` (the server closes sockets and files a moment after the clients go). */
export async function handlesSettle(start: number, limitMs: number): Promise<number> {
  const until = Date.now() + limitMs;
  let n = openHandles();
  while (n > start && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 20));
    n = openHandles();
  }
  return n;
}
