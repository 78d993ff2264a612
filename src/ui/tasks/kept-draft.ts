// The task editor's draft as it is kept across a reload (pure; the rune class in draft.svelte.ts
// holds it). Kept per tab, in sessionStorage, like the gate editor's draft: a draft belongs to the
// task this tab's run uses and this tab's link; a reload or a restored tab brings it back, another
// tab of the lab starts from its own task (a shared localStorage draft would be overwritten by
// whichever tab typed last).
import { errorText } from '../../core/unknown';
import { SPEC_TEXT_MAX } from '../../core/tasks/validate';
import { checkTaskDraft } from './draft';

export const TASK_DRAFT_KEY = 'invariant-lab/task-draft';

export interface KeptDraft {
  /** The JSON text as typed, not applied; null = no draft (the editor shows the task in use). */
  text: string | null;
  /** Whether the editor was open. */
  open: boolean;
}

export const NO_DRAFT: KeptDraft = { text: null, open: false };

/** A stored draft read back, and why it was dropped when it was (null: nothing dropped). */
export interface ReadDraft {
  draft: KeptDraft;
  dropped: string | null;
}

const DROPPED = "The task editor's draft from before the reload was dropped";

/**
 * What a stored value holds, checked on read as the editor will check it: anything unreadable (an
 * older shape, a hand edit, a text the check cannot take) is dropped with a message, so that a
 * draft can never stop the page from opening again and again.
 */
export function readKeptDraft(json: string | null, check: (text: string) => unknown = checkTaskDraft): ReadDraft {
  if (!json) return { draft: NO_DRAFT, dropped: null };
  let o: unknown;
  try {
    o = JSON.parse(json);
  } catch {
    return { draft: NO_DRAFT, dropped: `${DROPPED}: what was stored is not JSON` };
  }
  if (o === null || typeof o !== 'object' || Array.isArray(o)) return { draft: NO_DRAFT, dropped: `${DROPPED}: what was stored is not a draft` };
  const { text, open } = o as Record<string, unknown>;
  const none = { text: null, open: open === true };
  if (text === null || text === undefined) return { draft: none, dropped: null };
  if (typeof text !== 'string') return { draft: none, dropped: `${DROPPED}: its text is not text` };
  if (text.length > SPEC_TEXT_MAX) return { draft: none, dropped: `${DROPPED}: it is ${text.length} characters, over the limit of ${SPEC_TEXT_MAX}` };
  try {
    check(text);
  } catch (e) {
    return { draft: none, dropped: `${DROPPED}: it could not be checked (${errorText(e)})` };
  }
  return { draft: { text, open: open === true }, dropped: null };
}

/** The draft after an edit: typing back exactly the task in use leaves no draft. */
export function editedDraft(d: KeptDraft, text: string, inUse: string): KeptDraft {
  return { ...d, text: text === inUse ? null : text };
}

/** The text the editor shows. */
export const shownText = (d: KeptDraft, inUse: string): string => d.text ?? inUse;

/** A draft that differs from the task in use (what "not applied" means). */
export const isPending = (d: KeptDraft, inUse: string): boolean => d.text !== null && d.text !== inUse;
