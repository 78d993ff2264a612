// File planning: which of a run's files the format reads, in which role (an OpenClaw record file
// or its PRM file, a verl step file, …); the others are reported and skipped.
import { FORMAT_LABELS, KIND_FORMAT, type FileKind } from '../formats/detect';
import type { FormatId } from '../types';
import type { Peeked } from './detect-run';
import type { ImportTally, PlannedFile } from './tally';

/** The role a file is read in under `format`, or why it is skipped. */
export function fileRole(kind: FileKind | null, format: FormatId, explicit: boolean): FileKind | { skip: string } {
  if (kind && KIND_FORMAT[kind] !== format) {
    if (explicit && format === 'jsonl' && kind !== 'trl') return 'jsonl';
    return { skip: `skipped: this file looks like ${FORMAT_LABELS[KIND_FORMAT[kind]]}, not ${FORMAT_LABELS[format]}` };
  }
  // Unrecognized first record under an explicit format: read it, every bad line gets its message.
  return kind ?? (format === 'openclaw' ? 'openclaw-record' : format);
}

export function planFiles(peeked: readonly Peeked[], format: FormatId, explicit: boolean, tally: ImportTally): PlannedFile[] {
  const plan: PlannedFile[] = [];
  for (const p of peeked) {
    const sum = tally.file(p.source.name);
    if (p.kind === 'empty') {
      sum.kind = 'empty';
      tally.issue(p.source.name, 0, 'empty file', sum);
      tally.bytesDone += p.source.size;
      continue;
    }
    const role = fileRole(p.kind, format, explicit);
    if (typeof role === 'object') {
      tally.issue(p.source.name, 0, role.skip, sum);
      tally.bytesDone += p.source.size;
      continue;
    }
    sum.kind = role;
    plan.push({ source: p.source, kind: role, sum });
  }
  return plan;
}
