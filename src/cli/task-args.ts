// A task spec given on the command line (--task-file spec.json): read, checked with the core's
// validator (every bad field named with its path), returned as the `taskSpec` setting's text.
import { specText } from '../core/tasks/registry';
import { describeSpecErrors, parseTaskSpec } from '../core/tasks/validate';
import { readTextFile } from './files';

export function readTaskFile(path: string, flag = '--task-file'): string {
  const text = readTextFile(path, flag);
  const r = parseTaskSpec(text);
  if (!r.ok) throw new Error(`${flag} ${path}: ${describeSpecErrors(r.errors, 5)}`);
  return specText(r.spec);
}
