// Which task a config names: a built-in (by name) or a custom spec (its JSON text). One resolver for
// the loop, the workers, the CLIs and the views; compiled specs are cached by their text.
import { BUILTIN_SPECS, BUILTIN_TASKS, type BuiltinTaskName } from './builtin';
import { taskFromSpec } from './compile';
import type { TaskSpec } from './spec';
import type { Task } from './types';
import { describeSpecErrors, parseTaskSpec } from './validate';

/** What of a config picks the task. */
export interface TaskChoice {
  task: BuiltinTaskName;
  /** A custom task's spec as JSON text; '' = the built-in `task`. */
  taskSpec: string;
}

const compiled = new Map<string, { spec: TaskSpec; task: Task }>();

function custom(text: string): { spec: TaskSpec; task: Task } {
  let hit = compiled.get(text);
  if (!hit) {
    const r = parseTaskSpec(text);
    if (!r.ok) throw new Error(`task spec: ${describeSpecErrors(r.errors)}`);
    hit = { spec: r.spec, task: taskFromSpec(r.spec) };
    if (compiled.size > 32) compiled.clear();
    compiled.set(text, hit);
  }
  return hit;
}

const isCustom = (c: TaskChoice): boolean => c.taskSpec.trim() !== '';

/** The runtime task of a (validated) config. */
export function taskOf(c: TaskChoice): Task {
  return isCustom(c) ? custom(c.taskSpec).task : BUILTIN_TASKS[c.task];
}

/** The spec of a (validated) config's task. */
export function taskSpecOf(c: TaskChoice): TaskSpec {
  return isCustom(c) ? custom(c.taskSpec).spec : BUILTIN_SPECS[c.task];
}

/** A short name for labels: the built-in's name, or "custom: <spec name>". */
export function taskLabel(c: TaskChoice): string {
  return isCustom(c) ? `custom: ${custom(c.taskSpec).spec.name}` : c.task;
}

/** Whether the config's task has a shipped base checkpoint (a custom task's base is pretrained from its base mix). */
export function hasShippedBase(c: TaskChoice): boolean {
  return !isCustom(c);
}

/** The canonical text of a spec (compact JSON): what a config holds and a link carries. */
export function specText(spec: TaskSpec): string {
  return JSON.stringify(spec);
}

/** The `taskSpec` setting's check: null when the text is a valid spec, else its first problems. */
export function checkTaskSpecText(text: string): string | null {
  const r = parseTaskSpec(text);
  return r.ok ? null : describeSpecErrors(r.errors);
}
