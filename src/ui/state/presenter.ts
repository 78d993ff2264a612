/**
 * Presenter mode's "predict, then run" (pure): which settings are hidden right now, and text with
 * their values taken out. Hidden means hidden everywhere (views, lesson text, status line,
 * timeline) until the run reaches the checkpoint step; without a checkpoint, until presenting ends.
 */
import type { Config, ConfigKey } from '../../core/config';
import type { Presenter } from './url';

const NONE: ConfigKey[] = [];

/** The settings hidden at `step` (none when not presenting or once the checkpoint is reached). */
export function hiddenKeys(p: Presenter, step: number): readonly ConfigKey[] {
  // the same empty list every time: views that take it do not redraw on every step
  if (!p.on) return NONE;
  if (p.pauseAt !== null && step >= p.pauseAt) return NONE;
  return p.hide;
}

const HIDDEN = '?';
const NUMBER = /(?<![\w.])[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?(?![\w.]*\d)/gi;

/**
 * `text` with every literal of a hidden setting's value replaced by "?": numbers equal to a hidden
 * numeric value (0.28, 8), words equal to a hidden enum value. Errs on hiding too much (an
 * unrelated 8 goes too): the audience must not read the answer off the screen.
 */
export function redact(text: string, config: Config, keys: readonly ConfigKey[]): string {
  if (!keys.length || !text) return text;
  const nums: number[] = [];
  let out = text;
  for (const k of keys) {
    const v = config[k] as unknown;
    if (typeof v === 'number') nums.push(v);
    else if (typeof v === 'string' && v.length > 1) out = out.replace(new RegExp(`\\b${v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'g'), HIDDEN);
  }
  if (nums.length) out = out.replace(NUMBER, (m) => (nums.some((n) => Math.abs(Number(m) - n) <= 1e-9 * Math.max(1, Math.abs(n))) ? HIDDEN : m));
  return out;
}

/** A setting's value for display, or "?" while it is hidden. */
export function shown(config: Config, key: ConfigKey, keys: readonly ConfigKey[], fmt: (v: Config[ConfigKey]) => string = String): string {
  return keys.includes(key) ? HIDDEN : fmt(config[key]);
}
