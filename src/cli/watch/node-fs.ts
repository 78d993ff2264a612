// The follower's folder on Node: files under DIR (recursively, as relative "/" paths) with their
// sizes, read by byte range; errors in plain words (permission denied, vanished).
import { open, readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { FollowEntry, FollowFs } from '../../core/import/index';
import { errorText } from '../../core/unknown';

function plain(e: unknown): string {
  const code = (e as { code?: string }).code;
  return code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'ENOENT' ? 'no longer there' : errorText(e);
}

export function nodeFolder(dir: string): FollowFs {
  async function walk(d: string, out: FollowEntry[]): Promise<void> {
    let names: string[];
    try {
      names = await readdir(d);
    } catch (e) {
      if (d === dir) throw new Error(`${dir}: cannot be listed (${plain(e)})`);
      return;
    }
    for (const n of names.sort()) {
      const p = join(d, n);
      const path = relative(dir, p).split(sep).join('/');
      try {
        const s = await stat(p);
        if (s.isDirectory()) await walk(p, out);
        else if (s.isFile()) out.push({ path, size: s.size, mtimeMs: s.mtimeMs });
      } catch (e) {
        out.push({ path, size: 0, mtimeMs: 0, error: plain(e) });
      }
    }
  }
  return {
    async list() {
      const out: FollowEntry[] = [];
      await walk(dir, out);
      return out;
    },
    async read(path, start, end) {
      let h;
      try {
        h = await open(join(dir, path), 'r');
      } catch (e) {
        throw new Error(plain(e));
      }
      try {
        const buf = new Uint8Array(Math.max(0, end - start));
        const { bytesRead } = await h.read(buf, 0, buf.length, start);
        return buf.subarray(0, bytesRead);
      } finally {
        await h.close();
      }
    },
  };
}
