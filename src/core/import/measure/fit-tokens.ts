// The token level of each state × behavior of one step, for a task fit (src/core/tasks/fit-responses.ts),
// kept with the step's other fit counts (fit-counts.ts) and let go with it:
//   length_count/<state>/<behavior>/<L>: responses of L tokens (the import's tokens: the log's own
//     tokens, else words and punctuation marks; tokens.ts), L capped at the import's TOKEN_CAP;
//   filler_repeats, filler_pairs: how often the behavior's filler tokens repeat. A token in EVERY
//     response of the state × behavior in the step is its form (its marker words, a closing tag), not
//     a filler; the others are its fillers. Over the step's N filler tokens with counts c_w, the
//     repeat rate is Σ c_w(c_w − 1) / N(N − 1): the chance that two filler positions drawn without
//     replacement hold the same token (1/F for fillers drawn uniformly from F tokens). Both sums are
//     written, so a window of steps sums them (the within-step rate, pooled).
// What a step holds grows with its distinct (state × behavior, token) pairs, never with the step count.
import type { ScalarsWith } from '../../measure/names';
import { fillerPairsKey, fillerRepeatsKey, lengthCountKey } from './fit-keys';

interface Word {
  count: number;
  /** Responses holding the token, and the last one counted (1-based) so a response counts once. */
  responses: number;
  last: number;
}

interface Cell {
  state: string;
  behavior: string;
  responses: number;
  lengths: Map<number, number>;
  words: Map<string, Word>;
}

export class ResponseTokens {
  private cells = new Map<string, Cell>();
  private held = 0;

  add(state: string, behavior: string, tokens: readonly string[]): void {
    const key = `${state}/${behavior}`;
    let c = this.cells.get(key);
    if (!c) this.cells.set(key, (c = { state, behavior, responses: 0, lengths: new Map(), words: new Map() }));
    const r = ++c.responses;
    c.lengths.set(tokens.length, (c.lengths.get(tokens.length) ?? 0) + 1);
    for (const t of tokens) {
      let w = c.words.get(t);
      if (!w) {
        c.words.set(t, (w = { count: 0, responses: 0, last: 0 }));
        this.held++;
      }
      w.count++;
      if (w.last !== r) {
        w.last = r;
        w.responses++;
      }
    }
  }

  /** Distinct (state × behavior, token) pairs held. */
  get entries(): number {
    return this.held;
  }

  /** The step's token-level counts (only nonzero ones), state × behavior in name order. */
  scalars(out: ScalarsWith): void {
    for (const [, c] of [...this.cells].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      for (const [len, n] of [...c.lengths].sort((a, b) => a[0] - b[0])) out[lengthCountKey(c.state, c.behavior, len)] = n;
      let n = 0;
      let repeats = 0;
      for (const w of c.words.values()) {
        if (w.responses === c.responses) continue; // the behavior's form, not a filler
        n += w.count;
        repeats += w.count * (w.count - 1);
      }
      if (n > 1) out[fillerPairsKey(c.state, c.behavior)] = n * (n - 1);
      if (repeats) out[fillerRepeatsKey(c.state, c.behavior)] = repeats;
    }
  }
}
