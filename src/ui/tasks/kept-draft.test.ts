import { describe, expect, it } from 'vitest';
import { SPEC_TEXT_MAX } from '../../core/tasks/validate';
import { editedDraft, isPending, NO_DRAFT, readKeptDraft, shownText } from './kept-draft';

describe('the task draft kept across a reload', () => {
  const inUse = '{"name": "strategies"}';

  it('reads back what was kept; an unreadable value is dropped with a message', () => {
    const kept = editedDraft({ text: null, open: true }, '{"name": "mine"}', inUse);
    expect(readKeptDraft(JSON.stringify(kept))).toEqual({ draft: { text: '{"name": "mine"}', open: true }, dropped: null });
    expect(readKeptDraft(null)).toEqual({ draft: NO_DRAFT, dropped: null });
    expect(readKeptDraft(JSON.stringify({ text: null, open: true }))).toEqual({ draft: { text: null, open: true }, dropped: null });
    const dropped = (json: string) => readKeptDraft(json).dropped ?? '';
    expect(readKeptDraft('not json')).toEqual({ draft: NO_DRAFT, dropped: expect.stringMatching(/draft from before the reload was dropped: what was stored is not JSON$/) });
    expect(dropped('[1]')).toMatch(/is not a draft$/);
    expect(readKeptDraft(JSON.stringify({ text: 3, open: 'yes' }))).toEqual({ draft: { text: null, open: false }, dropped: expect.stringMatching(/its text is not text$/) });
    expect(readKeptDraft(JSON.stringify({ text: 'x'.repeat(SPEC_TEXT_MAX + 1), open: true }))).toEqual({ draft: { text: null, open: true }, dropped: expect.stringMatching(/over the limit of 200000$/) });
  });

  it('validates on read: a text the check cannot take is dropped, never kept to fail on every reload', () => {
    const kept = JSON.stringify({ text: '{"states": []}', open: true });
    const failing = () => {
      throw new TypeError("Cannot read properties of undefined (reading 'length')");
    };
    expect(readKeptDraft(kept, failing)).toEqual({ draft: { text: null, open: true }, dropped: "The task editor's draft from before the reload was dropped: it could not be checked (Cannot read properties of undefined (reading 'length'))" });
    // the real check takes hostile drafts: Object.prototype names, thousands of levels, not JSON
    const constructorSpec = JSON.stringify({ behaviors: [{ name: 'constructor' }], states: [{ name: 's', baseMix: { x: 1 }, act: {} }] });
    for (const text of [constructorSpec, `${'['.repeat(100_000)}${']'.repeat(100_000)}`, '{"a":', '']) expect(readKeptDraft(JSON.stringify({ text, open: true })).dropped).toBeNull();
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
