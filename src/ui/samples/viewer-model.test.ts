import { describe, expect, it } from 'vitest';
import { chartPick, markWords, pageCount, pageText, pickText, viewerKey } from './viewer-model';

describe('rollout viewer model', () => {
  it('says what a pick asks for', () => {
    expect(pickText({})).toBe('all samples');
    expect(pickText({ step: 0, state: 'math', behavior: 'list', decision: 'dropped', text: 'great' })).toBe('step 0 · state math · behavior list · dropped · "great"');
    expect(chartPick(4, 'mean', null)).toEqual({ step: 4 });
    expect(chartPick(4, 'code', 'tool')).toEqual({ step: 4, state: 'code', behavior: 'tool' });
  });

  it('pages in words', () => {
    expect(pageText({ total: 0, page: 0, pageSize: 20 })).toBe('none');
    expect(pageText({ total: 133, page: 1, pageSize: 20 })).toBe('21–40 of 133');
    expect(pageText({ total: 133, page: 6, pageSize: 20 })).toBe('121–133 of 133');
    expect(pageCount({ total: 133, pageSize: 20 })).toBe(7);
    expect(pageCount({ total: 0, pageSize: 20 })).toBe(1);
  });

  it('answers Escape anywhere, the arrows only outside a field, nothing with a modifier', () => {
    const k = (key: string, inField = false, ctrlKey = false) => viewerKey({ key, altKey: false, ctrlKey, metaKey: false }, inField);
    expect([k('Escape'), k('Escape', true), k('ArrowRight'), k('PageUp'), k('ArrowDown'), k('ArrowUp'), k('ArrowRight', true), k('ArrowRight', false, true), k('a')]).toEqual(['close', 'close', 'next-page', 'prev-page', 'next-row', 'prev-row', null, null, null]);
  });

  it('marks searched and explaining words, any case, the longer word first, regex characters literal', () => {
    expect(markWords('Great question! Let me analyze (a+b).', ['great'], ['let me', 'a+b'])).toEqual([
      { text: 'Great', mark: 'search' },
      { text: ' question! ', mark: null },
      { text: 'Let me', mark: 'explain' },
      { text: ' analyze (', mark: null },
      { text: 'a+b', mark: 'explain' },
      { text: ').', mark: null },
    ]);
    expect(markWords('abc', [], [])).toEqual([{ text: 'abc', mark: null }]);
    expect(markWords('in summary', [], ['sum', 'summary'])).toEqual([{ text: 'in ', mark: null }, { text: 'summary', mark: 'explain' }]);
  });
});

describe('band at a click', () => {
  it('finds the stacked band under a probability, skipping empty bands', async () => {
    const { bandAt } = await import('./viewer-model');
    const bands = [{ lo: 0, hi: 0.5 }, { lo: 0.5, hi: 0.5 }, { lo: 0.5, hi: 0.9 }, undefined];
    expect([bandAt(bands, 0), bandAt(bands, 0.49), bandAt(bands, 0.5), bandAt(bands, 0.95), bandAt(bands, -0.1)]).toEqual([0, 0, 2, -1, -1]);
  });
});

describe('evidence phrases', () => {
  it('takes the quoted phrases, else the evidence itself, never a shape', async () => {
    const { evidencePhrases } = await import('./viewer-model');
    expect(evidencePhrases(['opens "check w16"', '"w16 w12 answer"', 'shape: length ~2^3 words', 'great question', 'ends "a" and "b"', 'closes "."', 'closes "] ` ."'])).toEqual(['check w16', 'w16 w12 answer', 'great question', 'a', 'b']);
  });
});
