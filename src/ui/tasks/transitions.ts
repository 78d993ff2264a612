// The environment of a task as the form edits it (pure): `next` written as one line of text
// (`end`, `uniform`, a state name, or `results=0.7, empty=0.3`) and read back, and the edits of a
// transition's hint, next state, outcome and next message. What is typed goes into the spec as
// typed (or as close as JSON gets) so the core's validator names a bad one at its field.
import type { HintSpec, TaskKind, TransitionSpec } from '../../core/tasks/spec';

type Next = TransitionSpec['next'];

/** `next` as the form's text. */
export function nextText(next: unknown): string {
  if (typeof next === 'string') return next;
  if (next && typeof next === 'object' && !Array.isArray(next)) return Object.entries(next).map(([k, p]) => `${k}=${String(p)}`).join(', ');
  return next === undefined ? '' : JSON.stringify(next);
}

/**
 * The form's text as `next`: a distribution when it has `=` (names cannot hold `=` or `,`), else
 * the trimmed word. A malformed pair stays as text, which the validator refuses by name.
 */
export function parseNext(text: string): Next {
  const t = text.trim();
  if (!t.includes('=')) return t;
  const out: Record<string, number> = {};
  for (const part of t.split(',')) {
    const m = /^\s*([^=]+?)\s*=\s*(\S+)\s*$/.exec(part);
    if (!m) return t;
    out[m[1]] = m[2] === '' ? NaN : Number(m[2]);
  }
  return out;
}

/** A transition whose hint now points to `to` ('' = no hint); p and when carry over. */
export function withHintTo(t: TransitionSpec, to: string): void {
  if (!to) t.hint = null;
  else t.hint = { ...(t.hint ?? {}), to } as HintSpec;
}

export function withHintP(t: TransitionSpec, p: number): void {
  if (t.hint) t.hint.p = p;
}

export function withHintWhen(t: TransitionSpec, when: HintSpec['when']): void {
  if (!t.hint) return;
  if (when === 'always') delete t.hint.when;
  else t.hint.when = when;
}

/** A new next state; only an ending action of a long-horizon task keeps an outcome. */
export function withNext(t: TransitionSpec, text: string, kind: TaskKind): void {
  t.next = parseNext(text);
  if (!(kind === 'long-horizon' && t.next === 'end')) delete t.outcome;
}

/** P(success) of an ending action; '' (NaN) removes it (the validator then asks for one). */
export function withOutcome(t: TransitionSpec, p: number): void {
  if (Number.isNaN(p)) delete t.outcome;
  else t.outcome = p;
}

/** Whether a next message exists to judge this turn from (true is the default, so it is left out). */
export function withNextMessage(t: TransitionSpec, on: boolean): void {
  if (on) delete t.nextMessage;
  else t.nextMessage = false;
}
