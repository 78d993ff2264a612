// The output files of `npm run import` and `npm run watch` (--out, --samples-out) never destroy
// input: before anything is written, an output that is one of the inputs (the same file through a
// symbolic or hard link too: the same device and inode), one inside the folder a watch follows (it
// would be read back as a step), a directory, a link to nothing, or two outputs that are one file
// are refused; so is an existing file that is not this tool's own output (its first line is not a
// frame line / a samples line), unless --overwrite. Docs: docs/import.md, docs/watch.md.
import { closeSync, existsSync, lstatSync, openSync, readSync, readdirSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { frameOfLine, sampleOfLine } from '../core/import/index';

export const OVERWRITE_OPTIONS = { overwrite: { type: 'boolean' } } as const;
export const OVERWRITE_USAGE = '[--overwrite]';

/** An output file of the command line: its flag, its path, and whether a first line is one the tool writes there. */
export interface OutputFile {
  flag: string;
  path: string;
  ownLine(line: string): boolean;
}

/** --out: frame lines (src/core/import/follow/frame-line.ts), each starting with its step. */
export const framesOutput = (path: string): OutputFile => ({ flag: '--out', path, ownLine: (l) => l.startsWith('{"step":') && frameOfLine(l) !== null });

/** --samples-out: sample lines (src/core/import/samples/record.ts). */
export const samplesOutput = (path: string): OutputFile => ({ flag: '--samples-out', path, ownLine: (l) => sampleOfLine(l) !== null });

/** The output files a command line names (--out, --samples-out). */
export function namedOutputs(v: { out?: string; 'samples-out'?: string }): OutputFile[] {
  return [...(v.out ? [framesOutput(v.out)] : []), ...(v['samples-out'] ? [samplesOutput(v['samples-out'])] : [])];
}

/** What is read: the input files, and the folder a watch follows (every file under it, now and later). */
export interface Inputs {
  files?: readonly string[];
  folder?: string;
}

const FIRST_LINE_MAX = 64 << 20;

/** The file's first line (without its "\n") and whether a "\n" ended it; null when it is longer than FIRST_LINE_MAX. */
function firstLine(path: string): { line: string; ended: boolean } | null {
  const fd = openSync(path, 'r');
  try {
    const chunks: Buffer[] = [];
    const buf = Buffer.allocUnsafe(1 << 16);
    for (let total = 0, n; total < FIRST_LINE_MAX && (n = readSync(fd, buf, 0, buf.length, null)) > 0; total += n) {
      const nl = buf.subarray(0, n).indexOf(0x0a);
      chunks.push(Buffer.from(buf.subarray(0, nl < 0 ? n : nl)));
      if (nl >= 0) return { line: Buffer.concat(chunks).toString('utf8'), ended: true };
    }
    const rest = Buffer.concat(chunks);
    return rest.length < FIRST_LINE_MAX ? { line: rest.toString('utf8'), ended: false } : null;
  } finally {
    closeSync(fd);
  }
}

/**
 * Whether an existing file holds what `out` writes: it is empty, its first line is one of `out`'s, or
 * it is one line cut by a kill (no "\n") that starts as each of its lines does.
 */
function ownOutput(out: OutputFile, size: number): boolean {
  if (size === 0) return true;
  const first = firstLine(out.path);
  return first !== null && (out.ownLine(first.line) || (!first.ended && first.line.startsWith('{"step":')));
}

/** Where `path` would be written: the link followed when it exists, else its folder's real path and its name. */
function realTarget(path: string): string {
  if (existsSync(path)) return realpathSync(path);
  const dir = dirname(resolve(path));
  return join(existsSync(dir) ? realpathSync(dir) : dir, basename(path));
}

const within = (folder: string, path: string): boolean => {
  const r = relative(folder, path);
  return r === '' || (r !== '..' && !r.startsWith(`..${sep}`) && !isAbsolute(r));
};

const sameFile = (a: Stats, b: Stats): boolean => a.dev === b.dev && a.ino === b.ino;

/** Every file under `folder` (recursively, links followed) with its stats. */
function filesUnder(folder: string): { path: string; stat: Stats }[] {
  if (!existsSync(folder) || !statSync(folder).isDirectory()) return [];
  const out: { path: string; stat: Stats }[] = [];
  for (const name of readdirSync(folder, { recursive: true, encoding: 'utf8' })) {
    const path = join(folder, name);
    try {
      const stat = statSync(path);
      if (stat.isFile()) out.push({ path, stat });
    } catch {
      // vanished or unreadable: nothing an output could be
    }
  }
  return out;
}

/** The outputs checked: every reason they must not be written (each names its flag and file), and the existing files of others that --overwrite lets them replace. */
export interface OutputCheck {
  problems: string[];
  replaced: OutputFile[];
}

export function checkOutputs(outputs: readonly OutputFile[], inputs: Inputs, overwrite: boolean): OutputCheck {
  const bad: string[] = [];
  const replaced: OutputFile[] = [];
  const inputStats = [...(inputs.files ?? []).map((path) => ({ path, stat: statSync(path) })), ...(inputs.folder ? filesUnder(inputs.folder) : [])];
  const folder = inputs.folder && existsSync(inputs.folder) ? realpathSync(inputs.folder) : inputs.folder && resolve(inputs.folder);
  const seen: { flag: string; stat: Stats | null; target: string }[] = [];
  for (const out of outputs) {
    const what = `${out.flag} ${out.path}`;
    const link = lstatOrNull(out.path);
    if (link?.isSymbolicLink() && !existsSync(out.path)) {
      bad.push(`${what}: a link to a file that is not there; give the file itself`);
      continue;
    }
    const stat = link ? statSync(out.path) : null;
    const target = realTarget(out.path);
    if (stat?.isDirectory()) {
      bad.push(`${what}: is a directory, expected a file (say the file to write, e.g. ${join(out.path, out.flag === '--out' ? 'frames.jsonl' : 'samples.jsonl')})`);
      continue;
    }
    const input = stat && inputStats.find((i) => sameFile(i.stat, stat));
    if (input) {
      bad.push(`${what}: is the input ${input.path}${input.path === out.path ? '' : ' (the same file through a link)'}; writing it would destroy it: give a new file`);
      continue;
    }
    if (folder && within(folder, target)) {
      bad.push(`${what}: is inside the folder followed (${inputs.folder}), so the watch would read it back as a step: write it outside that folder`);
      continue;
    }
    const twin = seen.find((s) => (stat && s.stat ? sameFile(s.stat, stat) : s.target === target));
    if (twin) {
      bad.push(`${what}: is the same file as ${twin.flag}: give each output its own file`);
      continue;
    }
    seen.push({ flag: out.flag, stat, target });
    // a device or a pipe (/dev/stdout) is written as asked; only a regular file has content to lose
    if (!stat?.isFile() || ownOutput(out, stat.size)) continue;
    if (overwrite) replaced.push(out);
    else bad.push(`${what}: an existing file that ${out.flag} did not write (its first line is not one of its lines); give a new file, or --overwrite to replace it`);
  }
  return { problems: bad, replaced };
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}
