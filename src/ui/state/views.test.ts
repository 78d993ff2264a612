import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parsePreset } from '../../core/presets';
import { controlsNamedIn } from './named-controls';
import { projectorViews, viewsNamedIn } from './views';

const dir = new URL('../../../public/presets/', import.meta.url);
const watchOf = (id: string) => parsePreset(id, JSON.parse(readFileSync(new URL(`${id}.json`, dir), 'utf8'))).watch;

describe('projector views', () => {
  it('shows what the open lesson tells the class to watch', () => {
    expect(projectorViews(['behavior', 'metrics', 'ratio'], watchOf('k-cascade'))).toEqual(['invariants']);
    expect(projectorViews(['behavior', 'metrics'], watchOf('b-clip-higher'))).toEqual(['behavior', 'ratio']);
    expect(projectorViews(['behavior', 'metrics'], watchOf('d-at-least-one'))).toEqual(['metrics', 'invariants']);
    expect(projectorViews(['behavior', 'metrics'], watchOf('a-support-collapse'))).toEqual([]); // the headline alone
  });

  it('without a lesson keeps the first two selected views', () => {
    expect(projectorViews(['ratio', 'funnel', 'metrics'], undefined)).toEqual(['ratio', 'funnel']);
  });

  it('every shipped lesson that names a view in its explanation names one the rule finds', () => {
    const ids = readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5));
    for (const id of ids) {
      const watch = watchOf(id) ?? '';
      // a watch line that points at a panel by a word the rule does not know would show nothing
      if (/\b(view|panels?|over time|distribution|heatmap|funnel|inspector)\b/i.test(watch)) expect(viewsNamedIn(watch), id).not.toEqual([]);
    }
  });
});

describe('controls a lesson names', () => {
  const named = (id: string) => controlsNamedIn(watchOf(id) ?? '');
  it('finds the setting each fork lesson says to change, and the gate editor', () => {
    expect(named('b-clip-higher')).toEqual({ settings: ['clipHigh'], gateEditor: false });
    expect(named('c-clip-never-binds')).toEqual({ settings: ['updatesPerRollout'], gateEditor: false });
    expect(named('d-at-least-one')).toEqual({ settings: ['atLeastOne'], gateEditor: false });
    expect(named('h-long-horizon-credit')).toEqual({ settings: ['gamma', 'prmStepCoef'], gateEditor: false });
    expect(named('i-sft-compresses')).toEqual({ settings: ['sftGoldSteps'], gateEditor: false });
    expect(named('o-fitted-gate')).toEqual({ settings: [], gateEditor: true });
  });

  it('a label inside other words is not a control: "samples by gate rule", "the method\'s built-in gate"', () => {
    expect(named('f-combine-gating')).toEqual({ settings: [], gateEditor: false });
    expect(controlsNamedIn('Set method to grpo; press "Use the method\'s built-in gate"')).toEqual({ settings: ['method'], gateEditor: false });
  });
});
