/**
 * The task editor's state (runes): whether it is open and the draft being edited, kept in the tab's
 * session storage so that a reload brings both back (kept-draft.ts says why per tab). A draft that
 * came back from storage is `restored` until it is applied, discarded or no longer differs.
 */
import { editedDraft, isPending, NO_DRAFT, readKeptDraft, shownText, TASK_DRAFT_KEY, type KeptDraft } from './kept-draft';

export class TaskDraft {
  #d = $state<KeptDraft>(NO_DRAFT);
  #restored = $state(false);
  /** Why the draft kept from before the reload was dropped (unreadable, or the check failed on it); null: nothing dropped. */
  readonly dropped: string | null = null;

  constructor(private readonly storage: Pick<Storage, 'getItem' | 'setItem'> | null = null) {
    let kept: string | null = null;
    try {
      kept = storage?.getItem(TASK_DRAFT_KEY) ?? null;
    } catch {
      // storage refused (privacy settings): the draft lives in the page only
    }
    const read = readKeptDraft(kept);
    this.#d = read.draft;
    this.dropped = read.dropped;
    if (read.dropped) this.#set(read.draft); // not read again on the next reload
    this.#restored = this.#d.text !== null;
  }

  #set(d: KeptDraft): void {
    this.#d = d;
    try {
      this.storage?.setItem(TASK_DRAFT_KEY, JSON.stringify(d));
    } catch {
      // full or refused: the page still holds the draft
    }
  }

  get open(): boolean {
    return this.#d.open;
  }
  set open(v: boolean) {
    this.#set({ ...this.#d, open: v });
  }

  /** The text the editor shows, given the task in use. */
  text(inUse: string): string {
    return shownText(this.#d, inUse);
  }
  /** Edited and not applied. */
  pending(inUse: string): boolean {
    return isPending(this.#d, inUse);
  }
  /** A draft from before the reload that is still not applied. */
  restored(inUse: string): boolean {
    return this.#restored && this.pending(inUse);
  }

  edit(text: string, inUse: string): void {
    this.#set(editedDraft(this.#d, text, inUse));
  }

  /** Drop the draft: the editor shows the task in use (after Apply, Revert or Discard). */
  discard(): void {
    this.#restored = false;
    this.#set({ ...this.#d, text: null });
  }
}
