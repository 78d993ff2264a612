// The built-in tasks, shipped as specs (builtin/*.json) and compiled like any other spec.
import assistantSpec from './builtin/assistant.json';
import strategiesSpec from './builtin/strategies.json';
import toolchainSpec from './builtin/toolchain.json';
import { taskFromSpec } from './compile';
import type { TaskSpec } from './spec';
import type { Task } from './types';
import { describeSpecErrors, validateTaskSpec } from './validate';

export const BUILTIN_TASK_NAMES = ['strategies', 'assistant', 'toolchain'] as const;
export type BuiltinTaskName = (typeof BUILTIN_TASK_NAMES)[number];

function checked(json: unknown): TaskSpec {
  const r = validateTaskSpec(json);
  if (!r.ok) throw new Error(`built-in task spec is invalid: ${describeSpecErrors(r.errors)}`);
  return r.spec;
}

export const BUILTIN_SPECS: Record<BuiltinTaskName, TaskSpec> = {
  strategies: checked(strategiesSpec),
  assistant: checked(assistantSpec),
  toolchain: checked(toolchainSpec),
};

export const BUILTIN_TASKS: Record<BuiltinTaskName, Task> = {
  strategies: taskFromSpec(BUILTIN_SPECS.strategies),
  assistant: taskFromSpec(BUILTIN_SPECS.assistant),
  toolchain: taskFromSpec(BUILTIN_SPECS.toolchain),
};

export const isBuiltinTask = (name: string): name is BuiltinTaskName => (BUILTIN_TASK_NAMES as readonly string[]).includes(name);
