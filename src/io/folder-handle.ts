// The follower's folder in the browser (src/core/import/follow/fs.ts FollowFs) over a
// FileSystemDirectoryHandle: one the user picked with the File System Access API
// (showDirectoryPicker) or any other, such as the Origin Private File System's. Files under it are
// listed recursively as "/"-separated relative paths with File.size and File.lastModified; bytes are
// read by File.slice of a fresh File each time (a File is a snapshot: one taken before the file
// changed can no longer be read). Errors in plain words, as the Node folder says them.
import type { FollowEntry, FollowFs } from '../core/import/index';
import { errorText } from '../core/unknown';

function plain(e: unknown): string {
  const name = (e as { name?: string }).name;
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'permission denied';
  if (name === 'NotFoundError') return 'no longer there';
  if (name === 'NotReadableError') return 'changed while being read';
  return errorText(e);
}

export function handleFolder(dir: FileSystemDirectoryHandle): FollowFs {
  const files = new Map<string, FileSystemFileHandle>();
  async function walk(d: FileSystemDirectoryHandle, prefix: string, out: FollowEntry[]): Promise<void> {
    const entries: [string, FileSystemHandle][] = [];
    try {
      for await (const e of d.entries()) entries.push(e);
    } catch (e) {
      if (d === dir) throw new Error(`${dir.name}: cannot be listed (${plain(e)})`);
      return;
    }
    for (const [name, h] of entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
      const path = prefix + name;
      if (h.kind === 'directory') {
        await walk(h as FileSystemDirectoryHandle, `${path}/`, out);
        continue;
      }
      files.set(path, h as FileSystemFileHandle);
      try {
        const f = await (h as FileSystemFileHandle).getFile();
        out.push({ path, size: f.size, mtimeMs: f.lastModified });
      } catch (e) {
        out.push({ path, size: 0, mtimeMs: 0, error: plain(e) });
      }
    }
  }
  return {
    async list() {
      files.clear();
      const out: FollowEntry[] = [];
      await walk(dir, '', out);
      return out;
    },
    async read(path, start, end) {
      const h = files.get(path);
      if (!h) throw new Error('no longer there');
      try {
        const f = await h.getFile();
        return new Uint8Array(await f.slice(start, Math.min(end, f.size)).arrayBuffer());
      } catch (e) {
        throw new Error(plain(e));
      }
    },
  };
}
