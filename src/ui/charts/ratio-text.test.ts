import { describe, expect, it } from 'vitest';
import { constantNote, shareTicks } from './axis';
import { ratioAxisCaption, updatesText } from './ratio-text';
import type { Series } from './series';

const series = (values: number[]): Series[] => [{ key: 'k', label: 'k', color: '#000', points: values.map((value, step) => ({ step, value })) }];
const fmt = (v: number) => String(v);

describe('the ratio histogram\'s words', () => {
  it('names the open end bins only when there are bins', () => {
    expect(ratioAxisCaption([])).toBe('ratio ρ');
    expect(ratioAxisCaption([{ lo: 0, hi: 0.5 }, { lo: 0.5, hi: 1 }, { lo: 2, hi: 3 }])).toBe('ratio ρ (end bins open: ρ < 0.5 and ρ ≥ 2)');
  });
  it('counts one update in the singular', () => {
    expect(updatesText(1, false)).toBe('Tokens of the step\'s one update.');
    expect(updatesText(4, false)).toBe('Tokens of all 4 updates of the step.');
    expect(updatesText(4, true)).toBe('Tokens of every update of the step.');
  });
});

describe('shareTicks', () => {
  it('an empty histogram gets a 0–100 % axis with distinct labels, not six "0 %"', () => {
    const t = shareTicks(0).map((x) => x.label);
    expect(t[0]).toBe('0 %');
    expect(t.at(-1)).toBe('100 %');
    expect(new Set(t).size).toBe(t.length);
  });
  it('small shares get the digits that tell the ticks apart', () => {
    const t = shareTicks(0.012).map((x) => x.label);
    expect(new Set(t).size).toBe(t.length);
    expect(t).toContain('1.2 %');
  });
});

describe('constantNote', () => {
  it('a single point is one value so far, not a constant up to rounding noise', () => {
    expect(constantNote(series([4]), fmt)).toBe('one value so far: 4');
  });
  it('exact zeros are constant 0, without a claim of rounding noise', () => {
    expect(constantNote(series([0, 0, 0]), fmt)).toBe('constant 0');
  });
  it('float noise around a value is constant up to rounding noise; real variation is no constant', () => {
    expect(constantNote(series([1e-15, -1e-15, 0]), fmt)).toBe('constant 0 (varies by rounding noise only)');
    expect(constantNote(series([0.003, 0.0032]), fmt)).toBeNull();
  });
});
