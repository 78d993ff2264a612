// A file replaced whole: written to a temp file beside it, then renamed over it, so a kill leaves the
// old file or the new one, never a cut one. The temp file's name has a random part and it is created
// exclusively (O_CREAT|O_EXCL, and O_NOFOLLOW): a file or a link planted at a name beside the output
// is never written through; the rename replaces the output's name itself, never a link's target.
import { randomBytes } from 'node:crypto';
import { closeSync, constants, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';

const EXCLUSIVE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/** Replace `path` by what `write` writes to the temp file's descriptor. */
export function replaceFile(path: string, write: (fd: number) => void): void {
  const tmp = `${path}.${randomBytes(8).toString('hex')}.tmp`;
  const fd = openSync(tmp, EXCLUSIVE, 0o666);
  try {
    try {
      write(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** Replace `path` by `text`. */
export function replaceText(path: string, text: string): void {
  replaceFile(path, (fd) => writeFileSync(fd, text));
}
