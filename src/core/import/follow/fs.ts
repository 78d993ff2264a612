// What a follower needs of the folder it follows: the files under it with their sizes, and bytes
// of a file. The CLI gives a Node folder (src/cli/watch/node-fs.ts); the page's import worker a
// folder picked with the File System Access API. Paths are relative to the folder, "/"-separated.
import type { ImportSource } from '../types';

export interface FollowEntry {
  path: string;
  size: number;
  mtimeMs: number;
  /** Why the file cannot be looked at now (e.g. "permission denied"); it is tried again next poll. */
  error?: string;
}

export interface FollowFs {
  list(): Promise<FollowEntry[]>;
  /** Bytes [start, end) of a file (fewer when it has shrunk meanwhile). Throws with a plain message when it cannot be read. */
  read(path: string, start: number, end: number): Promise<Uint8Array>;
}

export const READ_CHUNK = 1 << 20;

/** A file of the followed folder as an import source (its size as listed; read in chunks). */
export function followSource(fs: FollowFs, path: string, size: number): ImportSource {
  return {
    name: path,
    size,
    async *stream() {
      for (let at = 0; at < size; at += READ_CHUNK) {
        const b = await fs.read(path, at, Math.min(size, at + READ_CHUNK));
        if (!b.byteLength) return;
        yield b;
      }
    },
    slice: async (a, b) => {
      const u = await fs.read(path, a, b);
      return u.buffer.slice(u.byteOffset, u.byteOffset + u.byteLength) as ArrayBuffer;
    },
  };
}
