// The `task` setting, in one place: which tasks exist and what a config may ask of one (its states).
// Tasks come from the registry (src/core/tasks); nothing else lists them.
import { TASKS, type TaskName } from '../tasks/index';

export const TASK_NAMES = Object.keys(TASKS) as readonly TaskName[];

/** How many states a task has (focusState must be one of them). */
export function taskStateCount(task: TaskName): number {
  return TASKS[task].states.length;
}
