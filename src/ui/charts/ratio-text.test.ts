import { describe, expect, it } from 'vitest';
import { constantNote, shareTicks } from './axis';
import { ratioAxisCaption, ratioNote, updatesText } from './ratio-text';
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

describe('the ratio histogram\'s note', () => {
  const bins = (counts: number[]) => [
    { lo: 0.8, hi: 0.9, count: counts[0] },
    { lo: 0.9, hi: 0.95, count: counts[1] },
    { lo: 0.95, hi: 1.05, count: counts[2] },
    { lo: 1.05, hi: 1.1, count: counts[3] },
  ];
  it('says "all ratios are ≈ 1" only when every token is in the bin around 1', () => {
    expect(ratioNote(bins([0, 0, 40, 0]), 0, true)).toMatch(/^All ratios are ≈ 1 \(0.95–1.05\): with one update per rollout/);
    expect(ratioNote(bins([0, 0, 40, 0]), 0, false)).toMatch(/has not moved away from π_old/);
  });
  it('with a quarter of the bars near 0.85 and none outside the band, says how many moved', () => {
    expect(ratioNote(bins([25, 0, 62, 13]), 0, false)).toBe('38 % of the tokens moved outside 0.95–1.05, but none left the clip band: the clip did not bind this step.');
  });
  it('says nothing when tokens are outside the band, or there are none', () => {
    expect(ratioNote(bins([25, 0, 62, 13]), 0.1, false)).toBeNull();
    expect(ratioNote(bins([0, 0, 0, 0]), 0, true)).toBeNull();
  });
});
