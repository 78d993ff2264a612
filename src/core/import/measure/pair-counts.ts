// Counts of integer pairs (a, b) in flat typed arrays: an open-addressing hash of ids, the keys and
// counts by id. Ids are dense and in order of first appearance, so iterating ids 0..size-1 visits
// the pairs in insertion order (what a Map would give) at about 20 bytes a pair instead of a Map
// entry plus a Map per first key (the import's next-token tables: measure.ts).

function hashPair(a: number, b: number): number {
  let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca6b);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 13);
}

export class PairCounts {
  /** id + 1 of the pair in each slot; 0 = empty. Kept at most half full. */
  private slots = new Int32Array(16);
  private as = new Int32Array(8);
  private bs = new Int32Array(8);
  private ns = new Uint32Array(8);
  size = 0;

  /** Add `by` to the count of (a, b) (non-negative int32s; a count stays below 2^32); its id. */
  add(a: number, b: number, by = 1): number {
    const mask = this.slots.length - 1;
    let i = hashPair(a, b) & mask;
    for (let s = this.slots[i]; s !== 0; s = this.slots[i]) {
      if (this.as[s - 1] === a && this.bs[s - 1] === b) {
        this.ns[s - 1] += by;
        return s - 1;
      }
      i = (i + 1) & mask;
    }
    const id = this.size++;
    if (id === this.as.length) this.growKeys();
    this.as[id] = a;
    this.bs[id] = b;
    this.ns[id] = by;
    this.slots[i] = id + 1;
    if (this.size * 2 > this.slots.length) this.rehash();
    return id;
  }

  /** Empty again, keeping the arrays (a table reused step after step makes no garbage). */
  reset(): void {
    this.slots.fill(0);
    this.size = 0;
  }

  first(id: number): number {
    return this.as[id];
  }

  second(id: number): number {
    return this.bs[id];
  }

  count(id: number): number {
    return this.ns[id];
  }

  private growKeys(): void {
    const n = this.as.length * 2;
    const grow = <T extends Int32Array | Uint32Array>(x: T, y: T): T => (y.set(x), y);
    this.as = grow(this.as, new Int32Array(n));
    this.bs = grow(this.bs, new Int32Array(n));
    this.ns = grow(this.ns, new Uint32Array(n));
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let id = 0; id < this.size; id++) {
      let i = hashPair(this.as[id], this.bs[id]) & mask;
      while (slots[i] !== 0) i = (i + 1) & mask;
      slots[i] = id + 1;
    }
    this.slots = slots;
  }
}
