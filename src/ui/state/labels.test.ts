import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS, fieldSpec } from '../../core/config';
import { GROUP_TITLES, fieldLabel, groupedKeys } from './labels';

describe('control labels', () => {
  it('groups every schema key exactly once, in schema order, under a titled group', () => {
    const groups = groupedKeys();
    expect(groups.flatMap((g) => g.keys).sort()).toEqual([...CONFIG_KEYS].sort());
    for (const g of groups) {
      expect(GROUP_TITLES[g.group]).toBeTruthy();
      for (const k of g.keys) expect(fieldSpec(k).group).toBe(g.group);
      expect(g.keys).toEqual(CONFIG_KEYS.filter((k) => g.keys.includes(k)));
    }
  });

  it('labels are unique and readable', () => {
    const labels = CONFIG_KEYS.map(fieldLabel);
    expect(new Set(labels).size).toBe(labels.length);
    expect(fieldLabel('clipHigh')).toBe('ε_high');
    expect(fieldLabel('rolloutBatch')).toBe('rollout batch');
  });
});
