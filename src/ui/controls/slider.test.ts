import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS, checkField, fieldSpec } from '../../core/config';
import { sliderScale } from './slider';

describe('sliderScale', () => {
  it('is logarithmic for the learning rate and round-trips its default', () => {
    const lr = fieldSpec('lr');
    if (lr.type !== 'float') throw new Error('lr is a float');
    const s = sliderScale(lr);
    expect(s.log).toBe(true);
    expect(s.fromSlider(s.toSlider(0.001))).toBeCloseTo(0.001, 6);
    expect(s.fromSlider(s.min)).toBe(lr.min);
    expect(s.fromSlider(s.max)).toBe(lr.max);
  });

  it('is linear for ε_high with a fine step; caps huge integer ranges', () => {
    const hi = sliderScale({ type: 'float', min: 0, max: 4 });
    expect(hi.log).toBe(false);
    expect(hi.fromSlider(0.28000000000000003)).toBe(0.28);
    const steps = sliderScale({ type: 'int', min: 1, max: 100000 });
    expect(steps.max).toBe(1000);
    expect(steps.fromSlider(12.4)).toBe(12);
  });

  it('every slider position of every numeric schema field is a valid value', () => {
    for (const k of CONFIG_KEYS) {
      const f = fieldSpec(k);
      if (f.type !== 'int' && f.type !== 'float') continue;
      const s = sliderScale(f);
      for (let i = 0; i <= 20; i++) {
        const v = s.fromSlider(s.min + ((s.max - s.min) * i) / 20);
        expect(checkField(k, v), `${k} at ${i}/20 → ${v}`).toBeNull();
      }
    }
  });
});
