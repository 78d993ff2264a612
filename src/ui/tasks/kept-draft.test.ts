import { describe, expect, it } from 'vitest';
import { SPEC_TEXT_MAX } from '../../core/tasks/validate';
import { editedDraft, isPending, NO_DRAFT, readKeptDraft, shownText } from './kept-draft';

describe('the task draft kept across a reload', () => {
  const inUse = '{"name": "strategies"}';

  it('reads back what was kept, and nothing from an unreadable value', () => {
    const kept = editedDraft({ text: null, open: true }, '{"name": "mine"}', inUse);
    expect(readKeptDraft(JSON.stringify(kept))).toEqual({ text: '{"name": "mine"}', open: true });
    expect(readKeptDraft(null)).toEqual(NO_DRAFT);
    expect(readKeptDraft('not json')).toEqual(NO_DRAFT);
    expect(readKeptDraft(JSON.stringify({ text: 3, open: 'yes' }))).toEqual({ text: null, open: false });
    expect(readKeptDraft(JSON.stringify({ text: 'x'.repeat(SPEC_TEXT_MAX + 1), open: true }))).toEqual({ text: null, open: true });
  });

  it('a draft is pending until it equals the task in use; no draft shows the task in use', () => {
    expect(shownText(NO_DRAFT, inUse)).toBe(inUse);
    expect(isPending(NO_DRAFT, inUse)).toBe(false);
    const d = editedDraft(NO_DRAFT, '{"name": "mine"', inUse); // not even JSON: kept as typed
    expect(shownText(d, inUse)).toBe('{"name": "mine"');
    expect(isPending(d, inUse)).toBe(true);
    // typing the task in use back leaves no draft
    expect(editedDraft(d, inUse, inUse).text).toBeNull();
    // the task in use changed to the draft (applied elsewhere): no longer pending
    expect(isPending(d, '{"name": "mine"')).toBe(false);
  });
});
