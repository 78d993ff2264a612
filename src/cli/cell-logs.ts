// The cell logs of one experiment under a folder (what `--all --out-dir` or an array scheduler's
// tasks wrote), read and checked to belong to one spec: for merge (a bundle) and record (a record).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseCellLog, type ParsedCell } from '../core/experiment/cell-log';
import { readTextFile } from './files';

export function readCellLogs(dir: string, command: string): ParsedCell[] {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.jsonl')).sort();
  if (files.length === 0) throw new Error(`${command}: no .jsonl cell logs under ${dir}`);
  const cells = files.map((f) => parseCellLog(readTextFile(join(dir, f), 'cell log'), f));
  const specText = JSON.stringify(cells[0].spec);
  cells.forEach((c, i) => {
    if (JSON.stringify(c.spec) !== specText) throw new Error(`${command}: ${files[i]} belongs to another spec (${c.spec.name}) than ${files[0]} (${cells[0].spec.name})`);
  });
  return cells;
}
