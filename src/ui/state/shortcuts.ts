/**
 * Keyboard shortcuts of the lab (pure): Space = play/pause, → = one step, ← = back one step,
 * r = reset. They work
 * wherever focus is, except where the key types or moves a value (text fields, sliders): after a
 * click on a button or a pick in a select, Space must not press the button again or open the picker.
 */
export type Shortcut = 'toggle' | 'step' | 'back' | 'reset';

/** What a keydown needs to know about its target (an Element, or a stand-in in tests). */
export interface KeyTarget {
  tagName: string;
  type?: string;
  isContentEditable?: boolean;
  getAttribute(name: string): string | null;
}

/** Input types whose keys do not type text (Space/→/← are free for the shortcuts). */
const NON_TEXT_INPUTS = new Set(['button', 'checkbox', 'radio', 'submit', 'reset', 'color', 'file', 'image']);

/** Focus is in something that takes the keys itself: text entry, a number, a slider. */
export function takesKeys(t: KeyTarget | null): boolean {
  if (!t || typeof t.tagName !== 'string') return false;
  const tag = t.tagName.toUpperCase();
  if (tag === 'TEXTAREA' || t.isContentEditable) return true;
  if (tag === 'INPUT') return !NON_TEXT_INPUTS.has((t.type ?? 'text').toLowerCase());
  const role = t.getAttribute('role');
  return role === 'slider' || role === 'textbox' || role === 'spinbutton';
}

export function shortcutFor(e: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean }, target: KeyTarget | null): Shortcut | null {
  if (e.ctrlKey || e.metaKey || e.altKey || takesKeys(target)) return null;
  if (e.key === ' ') return 'toggle';
  if (e.key === 'ArrowRight') return 'step';
  if (e.key === 'ArrowLeft') return 'back';
  if (e.key === 'r' || e.key === 'R') return 'reset';
  return null;
}
