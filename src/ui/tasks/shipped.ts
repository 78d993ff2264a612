// Task files shipped with the site (public/tasks/), offered by the task editor's "Start from".
export const SHIPPED_TASK_FILES = ['tasks/triage.json', 'tasks/fitted-verl.json'] as const;
