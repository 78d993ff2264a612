// The `task` and `taskSpec` settings, in one place: which tasks exist, what a config may ask of one
// (its states), and the check of a custom spec. Tasks come from the registry (src/core/tasks).
import { checkTaskSpecText, taskOf, type TaskChoice } from '../tasks/registry';
import { SPEC_TEXT_MAX } from '../tasks/validate';

export { checkTaskSpecText, SPEC_TEXT_MAX };

/** How many states the config's task has (focusState must be one of them). */
export function taskStateCount(c: TaskChoice): number {
  return taskOf(c).states.length;
}
