/**
 * The gate editor's state (runes): the draft text, kept as typed until Apply (it survives closing
 * the editor, a refused Apply, a change of the run's gate and, through the tab's session storage,
 * a reload), whether the editor is open, and its check by the core. Logic in editor.ts (pure).
 */
import { checkGateDraft, follow, normalized, storedDraft, type Draft } from './editor';

const KEY = 'invariant-lab/gate-draft';

export class GateDraft {
  #open = $state(false);
  #d = $state<Draft>({ text: '', applied: '' });
  /** The edited draft that a loaded gate or a revert replaced (one step back, so nothing typed is lost). */
  #previous = $state<string | null>(null);
  readonly check = $derived(checkGateDraft(this.#d.text));

  constructor(private readonly storage: Pick<Storage, 'getItem' | 'setItem'> | null = null) {
    let kept: ReturnType<typeof storedDraft> = null;
    try {
      kept = storedDraft(storage?.getItem(KEY) ?? null);
    } catch {
      // storage refused (privacy settings): the draft lives in the page only
    }
    if (kept) {
      this.#d = { text: kept.text, applied: kept.applied };
      this.#open = kept.open;
    }
  }

  #save(): void {
    try {
      this.storage?.setItem(KEY, JSON.stringify({ ...this.#d, open: this.#open }));
    } catch {
      // full or refused: nothing to do, the page still holds the draft
    }
  }

  get open(): boolean {
    return this.#open;
  }
  set open(v: boolean) {
    this.#open = v;
    this.#save();
  }

  get text(): string {
    return this.#d.text;
  }
  set text(t: string) {
    this.#d = { ...this.#d, text: t };
    this.#save();
  }
  /** The applied gate's text the draft last followed. */
  get applied(): string {
    return this.#d.applied;
  }
  /** Edited and not applied. */
  get dirty(): boolean {
    return this.#d.text !== this.#d.applied;
  }
  get canApply(): boolean {
    return this.dirty && this.check.gate !== null;
  }

  /** The run's gate is now `applied` (an untouched draft follows it). */
  follow(applied: string): void {
    const next = follow(this.#d, applied);
    if (next !== this.#d) {
      this.#d = next;
      this.#save();
    }
  }

  /** The text Apply sends (see `normalized`). */
  get toApply(): string {
    return normalized(this.#d.text);
  }

  /** After Apply: the applied text is the draft. */
  settle(text: string): void {
    this.#d = { text, applied: text };
    this.#save();
  }

  /** Replace the draft (a built-in gate, a revert); an edited draft can be brought back. */
  load(text: string): void {
    if (this.dirty && this.#d.text !== text) this.#previous = this.#d.text;
    this.text = text;
  }

  revert(): void {
    this.load(this.#d.applied);
  }

  get previous(): string | null {
    return this.#previous;
  }

  /** Back to the draft the last load or revert replaced (the current one takes its place). */
  restorePrevious(): void {
    if (this.#previous === null) return;
    const cur = this.#d.text;
    this.text = this.#previous;
    this.#previous = this.dirty && cur !== this.#previous ? cur : null;
  }
}
