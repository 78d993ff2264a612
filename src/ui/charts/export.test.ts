import { describe, expect, it } from 'vitest';
import { headerLayout } from './export';

describe('export header', () => {
  it('wraps a title wider than the chart and puts the legend under its last line', () => {
    const meta = { title: 'Metrics over time: reward, pass@k, samples, 503s', legend: [{ label: 'mean reward of served turns', color: '#332288' }] };
    const narrow = headerLayout(meta, 470);
    expect(narrow.title.length).toBe(2);
    expect(narrow.title.join(' ')).toBe(meta.title);
    const wide = headerLayout(meta, 1200);
    expect(wide.title).toEqual([meta.title]);
    expect(narrow.keys[0].y - wide.keys[0].y).toBe(22);
    expect(narrow.height - wide.height).toBe(22);
  });
});
