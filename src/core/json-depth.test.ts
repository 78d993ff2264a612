import { describe, expect, it } from 'vitest';
import { depthError, MAX_JSON_DEPTH, nestingDepth } from './json-depth';

const nested = (n: number): unknown => JSON.parse(`${'{"a":['.repeat(n)}1${']}'.repeat(n)}`);

describe('nesting depth', () => {
  it('counts objects and arrays, not scalars', () => {
    expect(nestingDepth(1)).toBe(0);
    expect(nestingDepth('x')).toBe(0);
    expect(nestingDepth(null)).toBe(0);
    expect(nestingDepth([])).toBe(1);
    expect(nestingDepth({ a: [1, { b: [] }], c: 2 })).toBe(4);
    expect(nestingDepth(nested(3))).toBe(6);
  });
  it('takes a million levels without recursion, and stops counting past the limit', () => {
    expect(nestingDepth(JSON.parse(`${'['.repeat(1e6)}${']'.repeat(1e6)}`), 1e7)).toBe(1e6);
    expect(nestingDepth(nested(1000))).toBe(MAX_JSON_DEPTH + 1);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(nestingDepth(cyclic)).toBe(MAX_JSON_DEPTH + 1);
  });
  it('the limit is an error naming it, the level at the limit is not', () => {
    expect(depthError(JSON.parse(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`), 'x')).toBeNull();
    expect(depthError(JSON.parse(`${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`), 'the preset')).toBe(`the preset nests objects or arrays more than ${MAX_JSON_DEPTH} levels deep, the limit`);
  });
});
