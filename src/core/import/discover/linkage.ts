// Average-linkage merging of groups (each a sum of unit vectors and a count, vectors.ts): while the
// closest two groups are at or above the threshold, the first such pair in (a, b) order merges into a,
// and a's similarity to every other group is the count-weighted mean of the two (Lance–Williams).
// Exactly the merges of a full scan of the m × m matrix after each merge, in O(m²) memory (one
// triangle) and about O(m²) time: each row keeps its best partner and is rescanned only when that
// partner merged away.
import { dotDense, spreadInto, type Sparse } from './vectors';

export interface Linked {
  n: number;
  /** Read for the groups given (a merged group's may be null: only counts are used after the first scan). */
  sum: Sparse | null;
}

/** The groups left once no two are ≥ `join` apart on average; `merge(a, b)` makes the merged group. */
export function agglomerate<G extends Linked>(groups: G[], join: number, dim: number, merge: (a: G, b: G) => G): G[] {
  const m = groups.length;
  const sim = similarities(groups, dim);
  // sim(a, b), a < b, is sim[base(a) + b]
  const base = (a: number) => (a * (2 * m - a - 1)) / 2 - a - 1;
  const at = (a: number, b: number) => (a < b ? base(a) + b : base(b) + a);
  const alive = new Uint8Array(m).fill(1);
  const best = new Float64Array(m);
  const partner = new Int32Array(m);
  // a row's best: the largest sim(a, b) over living b > a, the first such b on ties
  const rescan = (a: number) => {
    let s = -Infinity;
    let j = -1;
    const r = base(a);
    for (let b = a + 1; b < m; b++) if (alive[b] && sim[r + b] > s) (s = sim[r + b]), (j = b);
    best[a] = s;
    partner[a] = j;
  };
  for (let a = 0; a < m; a++) rescan(a);
  for (;;) {
    let s = -Infinity;
    let ba = -1;
    for (let a = 0; a < m; a++) if (alive[a] && partner[a] >= 0 && best[a] > s) (s = best[a]), (ba = a);
    if (ba < 0 || s < join) break;
    const bb = partner[ba];
    const A = groups[ba];
    const B = groups[bb];
    for (let c = 0; c < m; c++) {
      if (!alive[c] || c === ba || c === bb) continue;
      sim[at(ba, c)] = (A.n * sim[at(ba, c)] + B.n * sim[at(bb, c)]) / (A.n + B.n);
    }
    groups[ba] = merge(A, B);
    alive[bb] = 0;
    rescan(ba);
    for (let c = 0; c < bb; c++) {
      if (!alive[c] || c === ba) continue;
      if (c > ba) {
        if (partner[c] === bb) rescan(c);
      } else if (partner[c] === ba || partner[c] === bb) rescan(c);
      else {
        const x = sim[base(c) + ba];
        if (x > best[c] || (x === best[c] && ba < partner[c])) (best[c] = x), (partner[c] = ba);
      }
    }
  }
  return groups.filter((_, k) => alive[k]);
}

/**
 * The upper triangle of sumA · sumB / (nA · nB): each group's sum spread into one dense row, the
 * others' sparse sums dotted with it (the same products, in the same bucket order, as a sparse–sparse dot).
 */
function similarities(groups: readonly Linked[], dim: number): Float64Array {
  const m = groups.length;
  const sim = new Float64Array((m * (m - 1)) / 2);
  const row = new Float64Array(dim);
  let k = 0;
  for (let a = 0; a < m; a++) {
    const A = groups[a];
    spreadInto(row, A.sum!);
    for (let b = a + 1; b < m; b++) sim[k++] = dotDense(groups[b].sum!, row) / (A.n * groups[b].n);
    spreadInto(row, A.sum!, true);
  }
  return sim;
}
