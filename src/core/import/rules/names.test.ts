// Labels that differ only in whitespace or "/" stay apart (safeName folds both), and the import says so.
import { describe, expect, it } from 'vitest';
import { measureLogs } from '../analyze';
import { BehaviorClassifier, DistinctNames, StateClassifier, parseBehaviorRuleSet } from './rules';
import { emptySample } from '../formats/common';
import { memorySource } from '../sources';

const jl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

describe('distinct names', () => {
  it('x y, x_y and x/y are three names; the same label is always the same name', () => {
    const n = new DistinctNames();
    expect([n.name('x y'), n.name('x_y'), n.name('x/y'), n.name('x y'), n.name('z')]).toEqual(['x_y', 'x_y~2', 'x_y~3', 'x_y', 'z']);
    expect(n.renamed.map((r) => [r.label, r.name, r.clashesWith])).toEqual([['x_y', 'x_y~2', 'x y'], ['x/y', 'x_y~3', 'x y']]);
    expect(n.describe('state')[0]).toMatch(/state "x_y" is named "x_y~2": "x y" already has the name "x_y"/);
  });

  it('states and behaviors keep such labels apart', () => {
    const st = new StateClassifier({ kind: 'field', field: 'k' });
    const at = (k: string) => st.classify({ ...emptySample('f', 1), fields: { k } });
    expect([at('a b'), at('a/b'), at('a b')]).toEqual(['a_b', 'a_b~2', 'a_b']);
    const b = new BehaviorClassifier(parseBehaviorRuleSet({ rules: [{ label: 'tool call', toolsInclude: ['t'] }, { label: 'tool_call', maxTokens: 100 }], fallback: 'other' }));
    expect(b.labels()).toEqual(['tool_call', 'tool_call~2', 'other']);
    expect(b.classify({ ...emptySample('f', 1), toolCalls: ['t'] }).behavior).toBe('tool_call');
    expect(b.classify({ ...emptySample('f', 1), response: 'hi' }).behavior).toBe('tool_call~2');
  });

  it('a field state reads the record\'s own fields, never a name every object inherits', () => {
    for (const field of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      const st = new StateClassifier({ kind: 'field', field, missing: 'none' });
      expect(st.classify(emptySample('f', 1)), field).toBe('none');
      expect(st.classify({ ...emptySample('f', 1), fields: { [field]: 'own' } }), field).toBe('own');
    }
  });

  it('a measured import has one state per label, its samples not pooled, and an issue that names the renaming', async () => {
    const row = (state: string, score: number) => ({ input: `q ${state}`, output: 'o', score, step: 1, state });
    const m = await measureLogs([memorySource('1.jsonl', jl([row('x y', 1), row('x_y', 0), row('x/y', 1), row('x y', 1)]))], { states: { kind: 'field', field: 'state' }, behaviors: { rules: [], fallback: 'b' }, eps: 0.05 });
    expect(m.states.sort()).toEqual(['x_y', 'x_y~2', 'x_y~3']);
    expect(m.issues.filter((i) => i.message.includes('kept apart'))).toHaveLength(2);
  });
});
