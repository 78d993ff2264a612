// Which files of a run's folder are read, and why each other one is not: one rule for
// `npm run import DIR`, `npm run watch DIR` (src/core/import/follow/) and the page's folder. Paths
// are relative to the folder, "/"-separated, at any depth. How the writer keeps the run (its layout):
//   step-files  verl `{step}.jsonl` (trainer.rollout_data_dir), TRL `completions_{step}.parquet`
//   snapshots   OpenClaw-RL record + PRM files copied into a numbered directory a step (`step_0012/…`)
//   live        OpenClaw-RL's live record + PRM files, a generic JSONL log
import { snapshotStep } from '../formats/openclaw';
import { FORMAT_LABELS } from '../formats/detect';
import type { FormatId } from '../types';

export type FolderLayout = 'step-files' | 'snapshots' | 'live';

export interface FolderFile {
  path: string;
  /** The step its name says (a step file's number, a snapshot's directory); null when it says none. */
  step: number | null;
}

export interface FolderListing {
  layout: FolderLayout;
  /** The files read, in step order (then by name). */
  read: FolderFile[];
  /** Every other file, with why it is not read. */
  skipped: { path: string; why: string }[];
}

const LOG_FILE = /\.(jsonl|parquet)$/i;
const JSONL = /\.jsonl$/i;
const VERL_STEP = /(?:^|\/)(\d+)\.jsonl$/;
const TRL_STEP = /(?:^|\/)completions_(\d+)\.parquet$/;

export const NOT_A_LOG_FILE = 'not a log file (a run is read from .jsonl and .parquet files)';

/** A file a run's log can be: JSONL or parquet. */
export const isLogFile = (path: string): boolean => LOG_FILE.test(path);

/** An OpenClaw-RL PRM record file (`<record>_prm.jsonl`). */
export const isPrmFile = (path: string): boolean => /_prm\.jsonl$/i.test(path);

/** The step in a step file's name (verl `12.jsonl`, TRL `completions_00012.parquet`), else null. */
export function stepFileStep(path: string, format: 'verl' | 'trl'): number | null {
  const m = (format === 'trl' ? TRL_STEP : VERL_STEP).exec(path);
  return m ? Number(m[1]) : null;
}

/** A JSONL file inside a numbered directory of the folder (an OpenClaw snapshot's): that number, else null. */
export function snapshotFileStep(path: string): number | null {
  return path.includes('/') && JSONL.test(path) ? snapshotStep(path) : null;
}

/** The layout of a folder holding `format`; OpenClaw's is told by its record files (null while there is none). */
export function folderLayout(format: FormatId, paths: readonly string[]): FolderLayout | null {
  if (format === 'verl' || format === 'trl') return 'step-files';
  if (format !== 'openclaw') return 'live';
  const records = paths.filter((p) => JSONL.test(p) && !isPrmFile(p));
  if (!records.length) return null;
  return records.some((p) => snapshotFileStep(p) !== null) ? 'snapshots' : 'live';
}

/** The file's step under the layout, or why it is not read. */
function role(path: string, format: FormatId, layout: FolderLayout): FolderFile | { why: string } {
  if (!isLogFile(path)) return { why: NOT_A_LOG_FILE };
  if (format === 'trl') return JSONL.test(path) ? { why: `not read: ${FORMAT_LABELS.trl} are .parquet files` } : { path, step: stepFileStep(path, 'trl') };
  if (!JSONL.test(path)) return { why: `not read: a .parquet file is TRL's; ${FORMAT_LABELS[format]} is JSONL` };
  if (format === 'verl') return { path, step: stepFileStep(path, 'verl') };
  if (layout !== 'snapshots') return { path, step: null };
  const step = snapshotFileStep(path);
  if (step === null) return { why: 'not read: this folder holds per-step snapshot directories (step_NNNN/), and a file outside them is not a snapshot (import or follow the folder of the live files to read it)' };
  return { path, step };
}

/** The number ending a file's name (`run-12.jsonl` → 12), for ordering files whose step the name does not say. */
function trailingNumber(path: string): number {
  const m = /(\d+)\D*$/.exec(path.slice(path.lastIndexOf('/') + 1));
  return m ? Number(m[1]) : Infinity;
}

/** The files of a folder a `format` run is read from, in step order, and why each other file is not (`layout`: as already decided). */
export function listRunFolder(format: FormatId, paths: readonly string[], layout: FolderLayout = folderLayout(format, paths) ?? 'live'): FolderListing {
  const read: FolderFile[] = [];
  const skipped: FolderListing['skipped'] = [];
  for (const path of paths) {
    const r = role(path, format, layout);
    if ('why' in r) skipped.push({ path, why: r.why });
    else read.push(r);
  }
  const order = (f: FolderFile) => f.step ?? trailingNumber(f.path);
  read.sort((a, b) => order(a) - order(b) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { layout, read, skipped };
}
