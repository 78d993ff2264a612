// The files `npm run import` reads from its arguments: a file is itself; a folder is listed as
// `npm run watch` lists it (the same walk, src/cli/watch/node-fs.ts, and the same rule,
// src/core/import/read/run-folder.ts: verl step files, TRL completions, OpenClaw's record + PRM
// files live or as per-step snapshot directories, a generic JSONL log), at any depth. Without
// --format, the folder's format is told by the first record of its log files. A folder with nothing
// to read is an error that names every file seen and why it is not read.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { EXPECTED, ImportError, type FormatId } from '../core/import/index';
import { peek, runFormat } from '../core/import/read/detect-run';
import { NOT_A_LOG_FILE, isLogFile, listRunFolder } from '../core/import/read/run-folder';
import { fileSource } from './file-source';
import { nodeFolder } from './watch/node-fs';

export interface ImportPaths {
  files: string[];
  /** Log files of the folders that are not read, as "path: why" (said on stderr). */
  notRead: string[];
  /** Other files of the folders (not logs), counted. */
  otherFiles: number;
}

/** Lines of files seen in a folder with nothing to read, shown before the rest are counted. */
const SHOWN = 30;

/** The format of the folder's log files: the one asked for, else the one their first records say. */
async function folderFormat(dir: string, paths: readonly string[], format: FormatId | 'auto'): Promise<FormatId | null> {
  if (format !== 'auto') return format;
  const logs = paths.filter(isLogFile);
  if (!logs.length) return null;
  const peeked = [];
  for (const p of logs) peeked.push(await peek(fileSource(join(dir, p))));
  return runFormat(peeked, null);
}

/** Why nothing of `dir` is read: every file seen, each with its reason. */
function nothingToRead(dir: string, skipped: readonly { path: string; why: string }[], format: FormatId | null): ImportError {
  if (!skipped.length) return new ImportError(`${dir}: nothing to import: the folder holds no files (at any depth); ${EXPECTED}`);
  const lines = skipped.slice(0, SHOWN).map((s) => `  ${s.path}: ${s.why}`);
  if (skipped.length > SHOWN) lines.push(`  … and ${skipped.length - SHOWN} more`);
  const read = format ? ` as ${format}` : '';
  return new ImportError(`${dir}: nothing to import${read}: ${skipped.length} file${skipped.length === 1 ? '' : 's'} seen, none read:\n${lines.join('\n')}\n${EXPECTED}`);
}

async function folderFiles(dir: string, format: FormatId | 'auto', out: ImportPaths): Promise<void> {
  const paths = (await nodeFolder(dir).list()).map((e) => e.path);
  const fmt = await folderFormat(dir, paths, format);
  const listing = fmt ? listRunFolder(fmt, paths) : { read: [], skipped: paths.map((path) => ({ path, why: NOT_A_LOG_FILE })) };
  if (!listing.read.length) throw nothingToRead(dir, listing.skipped, fmt);
  out.files.push(...listing.read.map((f) => join(dir, f.path)));
  for (const s of listing.skipped) {
    if (isLogFile(s.path)) out.notRead.push(`${join(dir, s.path)}: ${s.why}`);
    else out.otherFiles++;
  }
}

/** The files named by the arguments (a folder's in step order); a missing path or an unreadable folder throws, naming it. */
export async function importPaths(args: readonly string[], format: FormatId | 'auto'): Promise<ImportPaths> {
  const out: ImportPaths = { files: [], notRead: [], otherFiles: 0 };
  for (const p of args) {
    if (statSync(p).isDirectory()) await folderFiles(p, format, out);
    else out.files.push(p);
  }
  return out;
}
