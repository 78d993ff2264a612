// The task editor's draft (pure): the spec's JSON text is the source of truth; the form reads the
// parsed object and writes back a changed copy; problems come from the core's validator, by path.
import { BUILTIN_SPECS, type BuiltinTaskName } from '../../core/tasks/builtin';
import { specText } from '../../core/tasks/registry';
import type { TaskSpec } from '../../core/tasks/spec';
import { nestingDepth, MAX_JSON_DEPTH } from '../../core/json-depth';
import { own, parseTaskSpec, type SpecError } from '../../core/tasks/validate';

export interface TaskDraftCheck {
  /** The parsed JSON (even when the spec is invalid), or null when the text is not JSON. */
  json: TaskSpec | null;
  errors: SpecError[];
  /** The canonical text to apply, when the spec is valid. */
  valid: string | null;
}

export function checkTaskDraft(text: string): TaskDraftCheck {
  let json: TaskSpec | null = null;
  try {
    const v = JSON.parse(text) as unknown;
    // the form walks the object: one nested past the limit is only shown as text (with the error)
    if (v && typeof v === 'object' && !Array.isArray(v) && nestingDepth(v) <= MAX_JSON_DEPTH) json = v as TaskSpec;
  } catch {
    json = null;
  }
  const r = parseTaskSpec(text);
  return { json, errors: r.errors, valid: r.ok ? specText(r.spec) : null };
}

/** Readable JSON (two-space indent) of a spec object. */
export const pretty = (spec: unknown): string => JSON.stringify(spec, null, 2);

export const builtinText = (name: BuiltinTaskName): string => pretty(BUILTIN_SPECS[name]);

/** The editor's text of the task a config uses (its custom spec, or the built-in's). */
export const inUseText = (c: { task: BuiltinTaskName; taskSpec: string }): string => (c.taskSpec.trim() ? pretty(JSON.parse(c.taskSpec)) : builtinText(c.task));

/** The text after `edit` changed a copy of the parsed spec. */
export function edited(json: TaskSpec, edit: (s: TaskSpec) => void): string {
  const copy = structuredClone(json);
  edit(copy);
  return pretty(copy);
}

/** Problems at a path or under it (`states[1]` takes `states[1].baseMix.direct`). */
export function errorsAt(errors: readonly SpecError[], path: string): SpecError[] {
  return errors.filter((e) => e.path === path || e.path.startsWith(`${path}.`) || e.path.startsWith(`${path}[`));
}

/** What the base policy will do: per state, the behavior mix and each behavior's expected reward E[vote] = P(+1) − P(−1). */
export interface StatePreview {
  state: string;
  rows: { behavior: string; mix: number; reward: number | null }[];
  /** Expected reward of a base-policy sample in this state. */
  mean: number | null;
}

/** An own entry of a draft's object (a behavior named "constructor" never finds Object.prototype's). */
export const ownEntry = (o: unknown, k: unknown): unknown => (o !== null && typeof o === 'object' && typeof k === 'string' ? own(o as Record<string, unknown>, k) : undefined);

export function preview(spec: TaskSpec): StatePreview[] {
  const num = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);
  return (Array.isArray(spec.states) ? spec.states : []).map((st) => {
    const rows = (Array.isArray(spec.behaviors) ? spec.behaviors : []).map((b) => {
      const t = ownEntry(ownEntry(st?.act, b?.name), 'truth');
      const reward = Array.isArray(t) && num(t[0]) !== null && num(t[2]) !== null ? (t[0] as number) - (t[2] as number) : null;
      return { behavior: String(b?.name), mix: num(ownEntry(st?.baseMix, b?.name)) ?? 0, reward };
    });
    const known = rows.every((r) => r.reward !== null);
    return { state: String(st?.name), rows, mean: known ? rows.reduce((a, r) => a + r.mix * (r.reward as number), 0) : null };
  });
}
