// The judges: m noisy votes, majority, tie → 0 (PRM / evaluation); and the hint judge, whose
// votes carry a candidate hint and its length.
import type { Rng } from '../rng';

export type Vote = -1 | 0 | 1;

/** The value with the most votes; 0 when no vote is cast or the top count is shared. */
export function majority(votes: readonly Vote[]): Vote {
  const count = { '-1': 0, '0': 0, '1': 0 };
  for (const v of votes) count[v]++;
  const order: Vote[] = [1, 0, -1];
  let best: Vote = 0;
  let bestCount = -1;
  let tie = false;
  for (const v of order) {
    const c = count[v];
    if (c > bestCount) {
      best = v;
      bestCount = c;
      tie = false;
    } else if (c === bestCount) tie = true;
  }
  return tie || bestCount <= 0 ? 0 : best;
}

/** m votes: each equals the true value, or with probability `noise` a uniform draw of {−1, 0, +1}. */
export function castVotes(truth: Vote, m: number, noise: number, rng: Rng): Vote[] {
  const out: Vote[] = [];
  for (let i = 0; i < m; i++) out.push(rng.next() < noise ? ((rng.int(3) - 1) as Vote) : truth);
  return out;
}

export interface HintVote {
  vote: 1 | -1;
  /** Behavior the hint points to (index within the task), or null with a −1 vote. */
  behavior: number | null;
  /** Simulated hint length in words. */
  length: number;
}

/**
 * m hint votes. With a true hint target, each vote proposes it (+1) with a random length 1..12;
 * with probability `noise` a vote is instead a coin flip between −1 and a +1 for a random behavior.
 */
export function castHintVotes(target: number | null, behaviors: number, m: number, noise: number, rng: Rng): HintVote[] {
  const out: HintVote[] = [];
  for (let i = 0; i < m; i++) {
    const len = 1 + rng.int(12);
    if (rng.next() < noise) {
      out.push(rng.next() < 0.5 ? { vote: 1, behavior: rng.int(behaviors), length: len } : { vote: -1, behavior: null, length: 0 });
    } else if (target !== null) out.push({ vote: 1, behavior: target, length: len });
    else out.push({ vote: -1, behavior: null, length: 0 });
  }
  return out;
}

export interface HintChoice {
  behavior: number;
  length: number;
}

/** OpenClaw's rule: accept +1 votes with length ≥ minLength; the longest accepted hint wins. */
export function chooseHint(votes: readonly HintVote[], minLength: number): HintChoice | null {
  let best: HintChoice | null = null;
  for (const v of votes) {
    if (v.vote !== 1 || v.behavior === null || v.length < minLength) continue;
    if (!best || v.length > best.length) best = { behavior: v.behavior, length: v.length };
  }
  return best;
}
