// `npm run experiment -- record DIR --out FILE`: an experiment's cell logs → its record
// (src/core/experiment/record.ts): the metrics the lessons' derived values read (their rules in
// public/presets/measured/*.json), with the command, code version, date, base and engine.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ParsedCell } from '../core/experiment/cell-log';
import { metricsOfRule } from '../core/experiment/lesson-values';
import { makeRecord, recordToJson } from '../core/experiment/record';
import { variantConfig, type ExperimentSpec } from '../core/experiment/spec';
import { parseMeasures } from '../core/lesson-text';
import { hasShippedBase, taskLabel } from '../core/tasks/registry';
import { readManifest } from './checkpoints';
import { readJsonFile } from './files';

const ROOT = join(import.meta.dirname, '../..');
const MEASURED = join(ROOT, 'public/presets/measured');

/**
 * Where the spec of a recorded experiment ships (relative to the repository): a lesson experiment of
 * the page (public/experiments/), else beside its record (a measurement the page does not offer).
 */
export function recordSpecPath(name: string): string {
  const lesson = `public/experiments/${name}.json`;
  return existsSync(join(ROOT, lesson)) ? lesson : `public/experiments/results/${name}.spec.json`;
}

/** The metrics the lessons' rules read from the record of `spec` (a rule's record defaults to its lesson). */
export function metricsForRecord(spec: ExperimentSpec): string[] {
  const specName = spec.name;
  const files = readdirSync(MEASURED).filter((f) => f.endsWith('.json')).sort();
  const metrics = new Set<string>();
  for (const f of files) {
    const id = f.replace(/\.json$/, '');
    const m = parseMeasures(id, readJsonFile(join(MEASURED, f), 'measurement file'));
    for (const rule of Object.values(m.derived)) if ((rule.record ?? id) === specName) for (const x of metricsOfRule(rule, spec)) metrics.add(x);
  }
  if (metrics.size === 0) throw new Error(`record: no lesson value is derived from ${specName} (public/presets/measured/*.json "derived"): name its rules first, the record keeps only what they read`);
  return [...metrics].sort();
}

/** Where the cells' base weights came from, as loadBase (engine-setup.ts) chooses it: --base FILE, else the shipped checkpoint, else pretrained per cell. */
function baseText(spec: ExperimentSpec, baseFile: string | undefined): string {
  if (baseFile) return `the base weights of --base ${baseFile} (sha256 ${createHash('sha256').update(readFileSync(baseFile)).digest('hex')})`;
  const cfg = variantConfig(spec, 0, spec.seeds[0]);
  const entry = readManifest()[cfg.task];
  if (!hasShippedBase(cfg) || !entry) return `no shipped checkpoint for ${taskLabel(cfg)}: each cell pretrained its base in process from its seed`;
  return `the shipped base public/checkpoints/${entry.file} (sha256 ${entry.sha256})`;
}

/** `baseFile`: the --base the cells were trained with (their logs do not say). */
export function recordCells(cells: ParsedCell[], out: string, baseFile?: string): { text: string; metrics: string[]; runs: number; spec: string } {
  const spec = cells[0].spec;
  const metrics = metricsForRecord(spec);
  const one = (what: string, xs: string[]) => {
    const set = [...new Set(xs)];
    if (set.length !== 1) throw new Error(`record: the cells come from several ${what} (${set.join(', ')}): record one run of the experiment`);
    return set[0];
  };
  const produced = {
    command: `npm run experiment -- --spec ${recordSpecPath(spec.name)} --all --jobs 1${baseFile ? ` --base ${baseFile}` : ''} --out-dir DIR, then npm run experiment -- record DIR${baseFile ? ` --base ${baseFile}` : ''} --out ${out}`,
    codeVersion: one('code versions', cells.map((c) => c.codeVersion)),
    date: new Date().toISOString(),
    base: baseText(spec, baseFile),
    engine: one('engines', cells.map((c) => c.run.engine ?? 'unknown')),
  };
  const record = makeRecord(spec, cells.map((c) => c.run), metrics, produced);
  return { text: recordToJson(record), metrics, runs: record.runs.length, spec: spec.name };
}
