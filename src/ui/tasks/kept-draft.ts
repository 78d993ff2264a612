// The task editor's draft as it is kept across a reload (pure; the rune class in draft.svelte.ts
// holds it). Kept per tab, in sessionStorage, like the gate editor's draft: a draft belongs to the
// task this tab's run uses and this tab's link; a reload or a restored tab brings it back, another
// tab of the lab starts from its own task (a shared localStorage draft would be overwritten by
// whichever tab typed last).
import { SPEC_TEXT_MAX } from '../../core/tasks/validate';

export const TASK_DRAFT_KEY = 'invariant-lab/task-draft';

export interface KeptDraft {
  /** The JSON text as typed, not applied; null = no draft (the editor shows the task in use). */
  text: string | null;
  /** Whether the editor was open. */
  open: boolean;
}

export const NO_DRAFT: KeptDraft = { text: null, open: false };

/** What a stored value holds; anything unreadable (an older shape, a hand edit) is no draft. */
export function readKeptDraft(json: string | null): KeptDraft {
  if (!json) return NO_DRAFT;
  try {
    const o = JSON.parse(json) as Record<string, unknown>;
    const text = typeof o.text === 'string' && o.text.length <= SPEC_TEXT_MAX ? o.text : null;
    return { text, open: o.open === true };
  } catch {
    return NO_DRAFT;
  }
}

/** The draft after an edit: typing back exactly the task in use leaves no draft. */
export function editedDraft(d: KeptDraft, text: string, inUse: string): KeptDraft {
  return { ...d, text: text === inUse ? null : text };
}

/** The text the editor shows. */
export const shownText = (d: KeptDraft, inUse: string): string => d.text ?? inUse;

/** A draft that differs from the task in use (what "not applied" means). */
export const isPending = (d: KeptDraft, inUse: string): boolean => d.text !== null && d.text !== inUse;
