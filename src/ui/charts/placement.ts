/**
 * Where chart labels go so that none overprints another (pure): text width estimates, a threshold
 * label pushed up past the one below it, setting-change labels packed into rows, a title wrapped
 * to the width it has.
 */

/** Rough width of a label in px (system-ui: ≈ 0.56 em per character; bold ≈ 0.6 em). */
export const textWidth = (text: string, fontSize: number, bold = false): number => text.length * fontSize * (bold ? 0.6 : 0.56);

/**
 * Baselines for labels that want to sit at `ys` (px, down is +): each ends at least `gap` above the
 * one below it (labels of equal or near values are stacked upwards instead of printed on each other).
 * Returns the positions in the input order.
 */
export function spreadUp(ys: readonly number[], gap: number): number[] {
  const order = ys.map((y, i) => ({ y, i })).sort((a, b) => b.y - a.y);
  const out = new Array<number>(ys.length);
  let prev = Infinity;
  for (const { y, i } of order) {
    const at = Math.min(y, prev - gap);
    out[i] = at;
    prev = at;
  }
  return out;
}

/**
 * Row (0 = lowest) for each horizontal span [x0, x1], in order: the first of `rows` rows where it
 * overlaps no span placed before (with `pad` px between); when every row is taken, the row whose
 * last span ends first.
 */
export function packRows(spans: readonly { x0: number; x1: number }[], rows: number, pad = 6): number[] {
  const placed: { x0: number; x1: number }[][] = Array.from({ length: rows }, () => []);
  return spans.map((s) => {
    let r = placed.findIndex((row) => row.every((o) => s.x1 + pad <= o.x0 || s.x0 >= o.x1 + pad));
    if (r < 0) {
      const ends = placed.map((row) => Math.max(...row.map((o) => o.x1)));
      r = ends.indexOf(Math.min(...ends));
    }
    placed[r].push(s);
    return r;
  });
}

/** Words of `text` in lines no wider than `width` px at `fontSize` (a word longer than a line gets a line of its own). */
export function wrapText(text: string, width: number, fontSize: number, bold = false): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (line && textWidth(next, fontSize, bold) > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/** A plotted series in px (down is +); a non-finite y breaks the line there. */
export type PxLine = readonly { x: number; y: number }[];

/** Height of a line of text above its baseline and below it, as a share of the font size. */
const ASCENT = 0.8;
const DESCENT = 0.25;

/** y of `line` (x ascending) at `x`: linear between points, or held from the left point for a step curve; NaN where it is not drawn. */
function lineAt(line: PxLine, x: number, stepAfter: boolean): number {
  if (!line.length || x < line[0].x || x > line[line.length - 1].x) return NaN;
  let lo = 0;
  let hi = line.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (line[mid].x <= x) lo = mid;
    else hi = mid;
  }
  const a = line[lo];
  const b = line[hi];
  if (x >= b.x) return b.y;
  if (stepAfter) return a.y;
  return b.x === a.x ? a.y : a.y + ((x - a.x) / (b.x - a.x)) * (b.y - a.y);
}

/** How many of the span's columns (every 2 px) have a line passing through the band [top, bottom]. */
function crossings(lines: readonly PxLine[], x0: number, x1: number, top: number, bottom: number, stepAfter: boolean): number {
  let n = 0;
  for (let x = x0; x <= x1; x += 2) {
    if (lines.some((l) => {
      const y = lineAt(l, x, stepAfter);
      return y >= top && y <= bottom;
    })) n++;
  }
  return n;
}

/**
 * Baselines for threshold labels, each written over the span [x0, x1] beside its dashed line at
 * `lineY`: above the line unless the plotted lines cross that box more than the box below it (which
 * must fit in the panel, 0..`panelH`), so that no label prints over a series that runs along its
 * line (token entropy near ln #behaviors); then labels on one side are spread apart (`spreadUp`,
 * mirrored below). Returns the baselines in the input order.
 */
export function thresholdBaselines(
  labels: readonly { lineY: number; x0: number; x1: number }[],
  lines: readonly PxLine[],
  fontSize: number,
  panelH: number,
  opts: { gap?: number; stepAfter?: boolean } = {},
): number[] {
  const gap = opts.gap ?? 2;
  const stepAfter = opts.stepAfter ?? false;
  const height = fontSize * (ASCENT + DESCENT);
  const below = labels.map(({ lineY, x0, x1 }) => {
    const up = crossings(lines, x0, x1, lineY - gap - height, lineY - gap, stepAfter);
    const down = crossings(lines, x0, x1, lineY + gap, lineY + gap + height, stepAfter);
    return lineY + gap + height <= panelH && down < up;
  });
  const baseline = labels.map(({ lineY }, i) => (below[i] ? lineY + gap + fontSize * ASCENT : lineY - gap - fontSize * DESCENT));
  const sideOf = (down: boolean) => labels.map((_, i) => i).filter((i) => below[i] === down);
  const out = [...baseline];
  const ups = sideOf(false);
  spreadUp(ups.map((i) => baseline[i]), height + 2).forEach((y, k) => (out[ups[k]] = y));
  const downs = sideOf(true);
  spreadUp(downs.map((i) => -baseline[i]), height + 2).forEach((y, k) => (out[downs[k]] = -y));
  return out;
}
