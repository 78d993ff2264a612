// The shipped example logs (public/examples, listed by its index.json) measured by the import with
// the examples' own rules: what tests of the import and of fitted tasks start from.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { measureLogs, type MeasureResult, type MeasureSpec } from '../../src/core/import/analyze';
import { memorySource } from '../../src/core/import/sources';
import type { FormatId, ImportSource } from '../../src/core/import/types';
import { openParquet } from '../../src/io/hyparquet';
import { nodeRegexEngine } from '../../src/io/regex/node';

export const EXAMPLES = join(import.meta.dirname, '../../public/examples');
const index = JSON.parse(readFileSync(join(EXAMPLES, 'index.json'), 'utf8')) as { files: Record<FormatId, string[]>; states: string; behaviors: Record<FormatId, string> };
const json = (f: string): unknown => JSON.parse(readFileSync(join(EXAMPLES, f), 'utf8'));

/** The example's states and behavior rules for a format. */
export function exampleRules(format: FormatId): Pick<MeasureSpec, 'states' | 'behaviors'> {
  return { states: json(index.states) as MeasureSpec['states'], behaviors: json(index.behaviors[format]) as MeasureSpec['behaviors'] };
}

/** The example's files of a format, in memory (a copy of each file's bytes). */
export function exampleSources(format: FormatId): ImportSource[] {
  return index.files[format].map((f) => memorySource(f, new Uint8Array(readFileSync(join(EXAMPLES, f)))));
}

export function importExample(format: FormatId, eps = 0.05): Promise<MeasureResult> {
  return measureLogs(exampleSources(format), { ...exampleRules(format), eps }, { format, parquet: openParquet, regex: nodeRegexEngine() });
}
