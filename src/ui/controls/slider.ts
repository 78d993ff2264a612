/**
 * Slider geometry for a numeric schema field (pure): linear over [min, max], logarithmic for wide
 * positive float ranges (learning rates, Adam ε), capped for huge integer ranges (steps) where the
 * number input next to it still takes any allowed value.
 */
export interface NumSpec {
  type: 'int' | 'float';
  min: number;
  max: number;
}

export interface SliderScale {
  min: number;
  max: number;
  step: number;
  log: boolean;
  toSlider(v: number): number;
  fromSlider(s: number): number;
}

const LOG_STEPS = 1000;
const INT_CAP = 1000;

export function sliderScale(n: NumSpec): SliderScale {
  // Rounding for display may step over a bound (0.99999 → 1): clamp back into the field's range.
  const clamp = (v: number) => Math.min(n.max, Math.max(n.min, v));
  if (n.type === 'float' && n.min > 0 && n.max / n.min >= 1000) {
    const span = Math.log(n.max / n.min);
    return {
      min: 0,
      max: LOG_STEPS,
      step: 1,
      log: true,
      toSlider: (v) => (Math.log(v / n.min) / span) * LOG_STEPS,
      fromSlider: (s) => clamp(Number((n.min * Math.exp((s / LOG_STEPS) * span)).toPrecision(3))),
    };
  }
  if (n.type === 'int') {
    const max = n.max - n.min > INT_CAP ? Math.max(n.min + 1, INT_CAP) : n.max;
    return { min: n.min, max, step: 1, log: false, toSlider: (v) => v, fromSlider: (s) => clamp(Math.round(s)) };
  }
  return { min: n.min, max: n.max, step: (n.max - n.min) / 1000, log: false, toSlider: (v) => v, fromSlider: (s) => clamp(Number(s.toPrecision(4))) };
}
