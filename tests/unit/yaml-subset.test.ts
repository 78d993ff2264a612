import { describe, expect, it } from 'vitest';
import { parseYamlSubset } from '../support/yaml-subset';

describe('parseYamlSubset', () => {
  it('parses block maps, sequences of maps, flow collections, literals and comments', () => {
    const y = ['a: 1 # c', 'b:', '  - x', '  - k: "v # not a comment"', '    m: [1, two]', 'c: { d: true, e: null }', 'f: |', '  line 1', '    line 2', "g: 'it''s'", 'h:', '- y'].join('\n');
    expect(parseYamlSubset(y)).toEqual({ a: 1, b: ['x', { k: 'v # not a comment', m: [1, 'two'] }], c: { d: true, e: null }, f: 'line 1\n  line 2\n', g: "it's", h: ['y'] });
  });
  it('refuses what it does not support, with the line', () => {
    expect(() => parseYamlSubset('a: &x 1')).toThrow(/line 1: anchors/);
    expect(() => parseYamlSubset('a:\n\t- 1')).toThrow(/line 2: tab/);
    expect(() => parseYamlSubset('a: 1\na: 2')).toThrow(/line 2: duplicate key a/);
    expect(() => parseYamlSubset('a: 1\n   b: 2')).toThrow(/line 2/);
    expect(() => parseYamlSubset('a: [1,\n 2]')).toThrow(/line 1/);
  });
});
