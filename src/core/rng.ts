// Seeded random numbers: mulberry32 generators, one independent named stream per concern
// (init, env, judge, sampling, ...) all derived from a single run seed. Streams never share state,
// so drawing more samples in one stream does not shift the numbers of another.

/** FNV-1a 32-bit hash of a string, mixed with a seed. */
export function hash32(text: string, seed = 0): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  // final avalanche (murmur3 fmix32)
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** The generator's position (one uint32): `new Rng(0).restore(r.position)` continues r's stream. */
  get position(): number {
    return this.state;
  }

  /** Continue from a position read with `position` (a resumed run draws what it would have drawn). */
  restore(position: number): this {
    if (!Number.isInteger(position) || position < 0 || position > 0xffffffff) throw new Error(`Rng.restore: a uint32 position, got ${position}`);
    this.state = position;
    return this;
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** True with probability p. */
  bernoulli(p: number): boolean {
    return this.next() < p;
  }

  /** Index drawn from unnormalized non-negative weights. */
  categorical(weights: ArrayLike<number>): number {
    let total = 0;
    for (let i = 0; i < weights.length; i++) total += weights[i];
    let u = this.next() * total;
    for (let i = 0; i < weights.length; i++) {
      u -= weights[i];
      if (u < 0) return i;
    }
    return weights.length - 1;
  }

  /** Standard normal (Box–Muller, one value per call). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** n uniforms in [0, 1) as float32 (for SampleRequest.uniforms). */
  uniforms(n: number): Float32Array {
    const out = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      // float32 rounding can reach 1.0; keep strictly below
      out[i] = Math.min(this.next(), 0.99999994);
    }
    return out;
  }

  /** An independent generator derived from this one's current state and a name. */
  fork(name: string): Rng {
    return new Rng(hash32(name, Math.floor(this.next() * 4294967296)));
  }
}

export type StreamName = 'init' | 'env' | 'judge' | 'sampling' | 'measure' | 'requests' | 'pretrain';

/** One independent stream per name, derived from the run seed only. */
export function stream(seed: number, name: StreamName | string): Rng {
  return new Rng(hash32(name, hash32(String(seed >>> 0))));
}

export interface RngStreams {
  init: Rng;
  env: Rng;
  judge: Rng;
  sampling: Rng;
  measure: Rng;
  requests: Rng;
  pretrain: Rng;
}

export const STREAM_NAMES = ['init', 'env', 'judge', 'sampling', 'measure', 'requests', 'pretrain'] as const satisfies readonly (keyof RngStreams)[];

/** Every stream's position (a run's resume point). */
export function streamPositions(s: RngStreams): Record<keyof RngStreams, number> {
  return Object.fromEntries(STREAM_NAMES.map((k) => [k, s[k].position])) as Record<keyof RngStreams, number>;
}

/** Streams continued from positions read with `streamPositions`. */
export function streamsAt(positions: Record<keyof RngStreams, number>): RngStreams {
  return Object.fromEntries(STREAM_NAMES.map((k) => {
    if (typeof positions[k] !== 'number') throw new Error(`stream position of "${k}" missing`);
    return [k, new Rng(0).restore(positions[k])];
  })) as unknown as RngStreams;
}

export function makeStreams(seed: number): RngStreams {
  return {
    init: stream(seed, 'init'),
    env: stream(seed, 'env'),
    judge: stream(seed, 'judge'),
    sampling: stream(seed, 'sampling'),
    measure: stream(seed, 'measure'),
    requests: stream(seed, 'requests'),
    pretrain: stream(seed, 'pretrain'),
  };
}
