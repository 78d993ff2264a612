// One step's empirical token statistics (measure.ts) in integer tables: tokens and states get ids
// for the step, next-token counts are kept per (state, previous token) group in PairCounts. A step
// of a long run holds a few hundred thousand distinct (state, previous, next) triples: as a Map per
// previous token plus a Set of bigram strings 44 MB a step (the bench's run), here 12 MB. Results
// are those of the Map version, summed in the same order:
//   support/token_entropy_empirical/<state> = H(next | previous) over the state's responses
//     (the first token's previous is START), support/token_entropy_empirical pooled over states,
//   support/distinct_1 = distinct tokens / tokens, support/distinct_2 = distinct bigrams / bigrams.
import type { ScalarsWith } from '../../measure/names';
import { PairCounts } from './pair-counts';

const START = 0;

export class StepTokens {
  /** Token → id (1…; START is 0) for this step. */
  private ids = new Map<string, number>();
  private states = new Map<string, number>();
  private stateNames: string[] = [];
  /** (state, previous token) → group id, in order of first appearance. */
  private groups = new PairCounts();
  /** (group, next token) → count, in order of first appearance. */
  private next = new PairCounts();
  /** Tokens, and bigrams (pairs within a response), counted. */
  tokens = 0;
  bigrams = 0;

  /** Empty again, keeping the tables' arrays: the next step reuses them (typed arrays let go are freed late). */
  reset(): void {
    this.ids.clear();
    this.states.clear();
    this.stateNames = [];
    this.groups.reset();
    this.next.reset();
    this.tokens = 0;
    this.bigrams = 0;
  }

  add(state: string, toks: readonly string[]): void {
    let st = this.states.get(state);
    if (st === undefined) {
      this.states.set(state, (st = this.stateNames.length));
      this.stateNames.push(state);
    }
    let prev = START;
    for (const t of toks) {
      let id = this.ids.get(t);
      if (id === undefined) this.ids.set(t, (id = this.ids.size + 1));
      this.next.add(this.groups.add(st, prev), id);
      prev = id;
    }
    this.tokens += toks.length;
    if (toks.length) this.bigrams += toks.length - 1;
  }

  /** Entries held in the tables (what the bounded-memory test counts). */
  get entries(): number {
    return this.ids.size + this.groups.size + this.next.size;
  }

  /** The step's token scalars (none without tokens); `scratch` is emptied and used for the pooled counts. */
  scalars(into: ScalarsWith, scratch = new PairCounts()): void {
    if (!this.tokens) return;
    const { groups, next } = this;
    // per group: its token count n and −Σ (c/n) log(c/n) over its next tokens, in insertion order
    const h = new Float64Array(groups.size);
    for (let e = 0; e < next.size; e++) {
      const g = next.first(e);
      const x = next.count(e) / groups.count(g);
      if (x > 0) h[g] -= x * Math.log(x);
    }
    const perState = new Float64Array(this.stateNames.length);
    const perStateN = new Float64Array(this.stateNames.length);
    const stateOrder: number[] = [];
    for (let g = 0; g < groups.size; g++) {
      const st = groups.first(g);
      if (perStateN[st] === 0) stateOrder.push(st);
      perState[st] += groups.count(g) * h[g];
      perStateN[st] += groups.count(g);
    }
    for (const st of stateOrder) into[`support/token_entropy_empirical/${this.stateNames[st]}`] = perState[st] / perStateN[st];
    const pooled = this.pooled(scratch);
    into['support/token_entropy_empirical'] = pooled.entropy;
    into['support/distinct_1'] = this.ids.size / this.tokens;
    if (this.bigrams) into['support/distinct_2'] = pooled.bigrams / this.bigrams;
  }

  /**
   * H(next | previous) pooled over states, and the distinct bigrams. The (previous, next) counts are
   * summed visiting groups in order and each group's next tokens in order (as the Map version did),
   * so every sum runs in the same order.
   */
  private pooled(pairs: PairCounts): { entropy: number; bigrams: number } {
    const { groups, next } = this;
    const byGroup = new Int32Array(groups.size + 1);
    for (let e = 0; e < next.size; e++) byGroup[next.first(e) + 1]++;
    for (let g = 0; g < groups.size; g++) byGroup[g + 1] += byGroup[g];
    const order = new Int32Array(next.size);
    const at = byGroup.slice(0, groups.size);
    for (let e = 0; e < next.size; e++) order[at[next.first(e)]++] = e;
    pairs.reset();
    for (const e of order) pairs.add(groups.second(next.first(e)), next.second(e), next.count(e));
    const v = this.ids.size + 1;
    const n = new Float64Array(v);
    for (let p = 0; p < pairs.size; p++) n[pairs.first(p)] += pairs.count(p);
    const h = new Float64Array(v);
    const prevOrder: number[] = [];
    const seen = new Uint8Array(v);
    let bigrams = 0;
    for (let p = 0; p < pairs.size; p++) {
      const prev = pairs.first(p);
      if (!seen[prev]) {
        seen[prev] = 1;
        prevOrder.push(prev);
      }
      const x = pairs.count(p) / n[prev];
      if (x > 0) h[prev] -= x * Math.log(x);
      if (prev !== START) bigrams++;
    }
    let sum = 0;
    let total = 0;
    for (const prev of prevOrder) {
      sum += n[prev] * h[prev];
      total += n[prev];
    }
    return { entropy: total ? sum / total : 0, bigrams };
  }
}
