import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS, GROUP_TITLES, fieldLabel, fieldSpec, groupedKeys } from '../../core/config';
import { formatSetting } from './labels';

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
  it('formats the gate setting for the timeline: built-in when empty, a rule count when several', () => {
    expect(formatSetting('')).toBe('built-in');
    expect(formatSetting('true => drop')).toBe('true => drop');
    expect(formatSetting('score < 0 => drop\n\ntrue => mask1 rl')).toBe('2 rules');
    expect(formatSetting(0.123456)).toBe('0.1235');
  });
});
