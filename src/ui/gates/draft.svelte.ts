/**
 * The gate editor's state (runes): the draft text, kept as typed until Apply (it survives closing
 * the editor, a refused Apply and a change of the run's gate), whether the editor is open, and its
 * check by the core. Logic in editor.ts (pure).
 */
import { checkDraft, follow, normalized, type Draft } from './editor';

export class GateDraft {
  open = $state(false);
  #d = $state<Draft>({ text: '', applied: '' });
  readonly check = $derived(checkDraft(this.#d.text));

  get text(): string {
    return this.#d.text;
  }
  set text(t: string) {
    this.#d = { ...this.#d, text: t };
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
    if (next !== this.#d) this.#d = next;
  }

  /** The text Apply sends (see `normalized`). */
  get toApply(): string {
    return normalized(this.#d.text);
  }

  /** After Apply: the applied text is the draft. */
  settle(text: string): void {
    this.#d = { text, applied: text };
  }

  revert(): void {
    this.#d = { ...this.#d, text: this.#d.applied };
  }
}
