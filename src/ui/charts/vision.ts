/**
 * How a colour looks with a colour-vision deficiency, and how far apart two colours look (pure).
 * Simulation: Machado, Oliveira & Fernandes (2009), "A physiologically-based model for simulation of
 * color vision deficiency", severity 1.0 matrices, applied to linear RGB. Difference: CIE76 ΔE in
 * CIELAB (d3-color's conversion), where about 2.3 is just noticeable and 20 or more reads as a
 * different colour at a glance.
 */
import { lab, rgb } from 'd3';

export type Vision = 'normal' | 'deuteranopia' | 'protanopia' | 'tritanopia';

const MACHADO: Record<Exclude<Vision, 'normal'>, number[][]> = {
  protanopia: [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
  ],
  deuteranopia: [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.01182, 0.04294, 0.968881],
  ],
  tritanopia: [
    [1.255528, -0.076749, -0.178779],
    [-0.078411, 0.930809, 0.147602],
    [0.004733, 0.691367, 0.3039],
  ],
};

const toLinear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const toSrgb = (c: number) => {
  const x = Math.min(1, Math.max(0, c));
  return x <= 0.0031308 ? 12.92 * x : 1.055 * x ** (1 / 2.4) - 0.055;
};

/** The colour (#rrggbb) as seen with `vision`. */
export function simulate(hex: string, vision: Vision): string {
  if (vision === 'normal') return rgb(hex).formatHex();
  const c = rgb(hex);
  const lin = [c.r, c.g, c.b].map((v) => toLinear(v / 255));
  const [r, g, b] = MACHADO[vision].map((row) => toSrgb(row[0] * lin[0] + row[1] * lin[1] + row[2] * lin[2]) * 255);
  return rgb(r, g, b).formatHex();
}

/** CIE76 ΔE between two colours. */
export function deltaE(a: string, b: string): number {
  const x = lab(a);
  const y = lab(b);
  return Math.hypot(x.l - y.l, x.a - y.a, x.b - y.b);
}
