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
