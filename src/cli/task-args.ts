// A task spec given on the command line (--task-file spec.json): read, checked with the core's
// validator (every bad field named with its path), returned as the `taskSpec` setting's text.
import { readFileSync } from 'node:fs';
import { specText } from '../core/tasks/registry';
import { describeSpecErrors, parseTaskSpec } from '../core/tasks/validate';

export function readTaskFile(path: string, flag = '--task-file'): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
  } catch (e) {
    throw new Error(`${flag} ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String(e)}`);
  }
  const r = parseTaskSpec(text);
  if (!r.ok) throw new Error(`${flag} ${path}: ${describeSpecErrors(r.errors, 5)}`);
  return specText(r.spec);
}
