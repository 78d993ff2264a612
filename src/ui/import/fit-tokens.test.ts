// FitTokens.svelte's rows on the shipped verl example: the fitted task's mean length per state ×
// behavior is the log's mapped mean (the fitted P(k fillers) is the log's histogram), its filler
// tokens the log's 1/r rounded and clamped; a row the model cannot hold says so.
import { describe, expect, it } from 'vitest';
import { fitTask } from '../../core/tasks/fit';
import { importExample } from '../../../tests/support/example-import';
import { ruleText, tokenRows } from './fit-tokens';

describe('the fitted token level beside the log\'s', () => {
  it('per state × behavior: lengths equal, filler tokens from the repeat rate, and what the model cannot hold', async () => {
    const fit = fitTask(await importExample('verl'));
    const rows = tokenRows(fit);
    expect(rows.length).toBe(12);
    for (const r of rows) {
      expect(r.fittedLength, `${r.state}/${r.behavior}`).toBeCloseTo(r.logLength, 12);
      if (r.logWords !== null) expect(r.fillerTokens).toBe(Math.min(20, Math.max(1, Math.round(r.logWords))));
      expect(r.tooDiverse).toBe(r.logWords !== null && r.logWords > 20.5);
    }
    const code = rows.find((r) => r.state === 'code' && r.behavior === 'decompose')!;
    expect(code.responses).toBe(9);
    expect(code.logTokens - code.logLength).toBeCloseTo(4, 12); // L_min = 5 word tokens ↔ 1 model token
    expect(rows.filter((r) => r.tooDiverse).length).toBeGreaterThan(0);
    expect(ruleText(fit)).toMatch(/^marker \+ round\(\(L − 5\)·s\) fillers, s = 1: the log's lengths \(5–16 tokens\)/);
  });
});
