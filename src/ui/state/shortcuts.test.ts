import { describe, expect, it } from 'vitest';
import { shortcutFor, type KeyTarget } from './shortcuts';

const el = (tagName: string, attrs: Record<string, string> = {}, extra: Partial<KeyTarget> = {}): KeyTarget => ({
  tagName,
  type: attrs.type,
  getAttribute: (n) => attrs[n] ?? null,
  ...extra,
});
const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean }> = {}) => ({ key: k, ctrlKey: false, metaKey: false, altKey: false, ...mods });

describe('shortcutFor', () => {
  it('works after a click on a button, a pick in a select, a checkbox or a summary', () => {
    for (const t of [el('BUTTON'), el('SELECT'), el('INPUT', { type: 'checkbox' }), el('INPUT', { type: 'radio' }), el('SUMMARY'), el('BODY'), null]) {
      expect(shortcutFor(key('ArrowRight'), t)).toBe('step');
      expect(shortcutFor(key(' '), t)).toBe('toggle');
      expect(shortcutFor(key('ArrowLeft'), t)).toBe('back');
      expect(shortcutFor(key('r'), t)).toBe('reset');
    }
  });

  it('leaves keys to text fields, numbers and sliders', () => {
    for (const t of [el('INPUT', { type: 'text' }), el('INPUT', { type: 'number' }), el('INPUT', { type: 'range' }), el('INPUT'), el('TEXTAREA'), el('RECT', { role: 'slider' }), el('DIV', {}, { isContentEditable: true })]) {
      expect(shortcutFor(key('ArrowRight'), t)).toBeNull();
      expect(shortcutFor(key(' '), t)).toBeNull();
      expect(shortcutFor(key('ArrowLeft'), t)).toBeNull();
    }
  });

  it('ignores modified keys and other keys', () => {
    expect(shortcutFor(key('r', { ctrlKey: true }), null)).toBeNull();
    expect(shortcutFor(key('ArrowLeft', { altKey: true }), null)).toBeNull();
    expect(shortcutFor(key('ArrowUp'), null)).toBeNull();
  });
});
