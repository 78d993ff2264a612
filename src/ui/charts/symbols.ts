/**
 * A second channel besides colour (pure): each series of a chart gets a marker shape and each band of
 * a stacked area a hatch pattern, so that a plot still reads in greyscale, with a colour-vision
 * deficiency or on a washed-out projector. A run and its compare run share a series' shape (the
 * compare run's is hollow; its line is dashed).
 */
import { symbol, symbolAsterisk, symbolCircle, symbolCross, symbolDiamond, symbolSquare, symbolStar, symbolTimes, symbolTriangle, symbolWye, type SymbolType } from 'd3';
import { COMPARE_SUFFIX, type Point } from './series';

const SHAPES: readonly SymbolType[] = [symbolCircle, symbolSquare, symbolTriangle, symbolDiamond, symbolCross, symbolTimes, symbolStar, symbolWye, symbolAsterisk];
/** How many series a chart can tell apart by shape alone. */
export const SHAPE_COUNT = SHAPES.length;

/** SVG path (centred on 0,0) of marker shape `i`, about `size` px across. */
export function shapePath(i: number, size = 9): string {
  return symbol(SHAPES[i % SHAPES.length], size * size * 0.8)() ?? '';
}

/**
 * Shape index per series key: one per series label (a compare series takes its own run's), in order
 * of first appearance, so the legend, the lines and the compare run agree.
 */
export function shapeIndex(series: readonly { key: string; label: string }[]): Map<string, number> {
  const byLabel = new Map<string, number>();
  const out = new Map<string, number>();
  for (const s of series) {
    const base = s.label.endsWith(COMPARE_SUFFIX) ? s.label.slice(0, -COMPARE_SUFFIX.length) : s.label;
    if (!byLabel.has(base)) byLabel.set(base, byLabel.size);
    out.set(s.key, byLabel.get(base)!);
  }
  return out;
}

/**
 * The points of a line that carry its marker: about one per `spacing` px of the x axis, shifted by
 * `phase` (0…1 of a spacing) so that the markers of several series at one step do not sit on one another.
 */
export function markerPoints(points: readonly Point[], px: (step: number) => number, spacing: number, phase: number): Point[] {
  const out: Point[] = [];
  let next = phase * spacing;
  for (const p of points) {
    if (!Number.isFinite(p.value)) continue;
    const at = px(p.step);
    if (at + 1e-9 < next) continue;
    out.push(p);
    next = (Math.floor((at - phase * spacing) / spacing) + 1 + phase) * spacing;
  }
  return out;
}

/** Hatch patterns of stacked bands (drawn in white over the band's colour), one per band index. */
export const HATCHES: readonly { id: string; size: number; path: string; dots?: boolean }[] = [
  { id: 'none', size: 8, path: '' },
  { id: 'diag', size: 8, path: 'M-2,2 l4,-4 M0,8 l8,-8 M6,10 l4,-4' },
  { id: 'dots', size: 8, path: 'M4,4 m-1.6,0 a1.6,1.6 0 1,0 3.2,0 a1.6,1.6 0 1,0 -3.2,0', dots: true },
  { id: 'horiz', size: 8, path: 'M0,4 h8' },
  { id: 'cross', size: 8, path: 'M0,4 h8 M4,0 v8' },
  { id: 'back', size: 8, path: 'M-2,6 l4,4 M0,0 l8,8 M6,-2 l4,4' },
  { id: 'vert', size: 8, path: 'M4,0 v8' },
  { id: 'grid', size: 8, path: 'M0,0 l8,8 M8,0 l-8,8' },
];

/** The hatch of band `i`. */
export function hatchOf(i: number): (typeof HATCHES)[number] {
  return HATCHES[i % HATCHES.length];
}
