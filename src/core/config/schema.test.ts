import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS, RUN_FIXING_KEYS, SCHEMA, fieldLabel, fixesRun, runFixingIn, settingOfUrlKey, urlKey } from './index';

describe('the schema table', () => {
  it('declares the run-fixing settings once; everything else reads them from it', () => {
    expect(RUN_FIXING_KEYS).toEqual(['task', 'taskSpec', 'seed', 'sftGoldSteps', 'sftBatch', 'sftLr', 'dModel', 'layers', 'heads', 'mlp']);
    expect(fixesRun('clipHigh')).toBe(false);
    expect(fixesRun('dModel')).toBe(true);
    for (const k of ['constructor', '__proto__', 'toString', 'nope']) expect(fixesRun(k), k).toBe(false);
    expect(runFixingIn({ clipHigh: 0.3, seed: 2, heads: 2 })).toEqual(['seed', 'heads']);
  });

  it('every setting has a label, a URL key that names it back, and a doc', () => {
    for (const k of CONFIG_KEYS) {
      expect(fieldLabel(k), k).not.toBe('');
      expect(settingOfUrlKey(urlKey(k)), k).toBe(k);
      expect(SCHEMA[k].doc.length, k).toBeGreaterThan(5);
    }
    expect(fieldLabel('clipHigh')).toBe('ε_high');
    for (const k of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) expect(settingOfUrlKey(k), k).toBeNull();
  });
});
