// The shared response grammar: a behavior is an ordered list of marker tokens; a response is those
// markers with 0–3 filler tokens after each, then EOS — or, where a task gives a behavior's token
// level (a spec's `responses`, fitted from a log: spec.ts ResponseSpec), its markers with k fillers
// drawn from its length distribution and its filler tokens. The classifier reads the structure only.
import { EOS, FILLER_COUNT, PAD, RESPONSE_MAX, fillerToken, isFiller, isMarker } from './vocab';
import type { Rng } from '../rng';

export const INVALID = -1;

/** Draw the response body of a behavior (markers + fillers) followed by EOS. */
export function renderBehavior(markers: readonly number[], rng: Rng): number[] {
  const out: number[] = [];
  let budget = RESPONSE_MAX - markers.length;
  for (const m of markers) {
    out.push(m);
    const k = Math.min(budget, rng.int(4));
    for (let i = 0; i < k; i++) out.push(fillerToken(rng.int(FILLER_COUNT)));
    budget -= k;
  }
  out.push(EOS);
  return out;
}

/** A behavior's token level in one state: P(k fillers), and the filler tokens w0 … w{fillerTokens − 1}. */
export interface ResponseModel {
  fillers: readonly number[];
  fillerTokens: number;
}

/**
 * A response of a behavior with a given token level: k ~ P(k fillers), spread over the markers
 * (marker j gets ⌊k/m⌋, the first k mod m one more), each filler uniform over the model's tokens.
 */
export function renderResponse(markers: readonly number[], model: ResponseModel, rng: Rng): number[] {
  const k = rng.categorical(model.fillers);
  const m = markers.length;
  const out: number[] = [];
  markers.forEach((marker, j) => {
    out.push(marker);
    const n = Math.floor(k / m) + (j < k % m ? 1 : 0);
    for (let i = 0; i < n; i++) out.push(fillerToken(rng.int(model.fillerTokens)));
  });
  out.push(EOS);
  return out;
}

/**
 * Behavior index of a response (tokens after the prompt), or INVALID: the response must end with EOS
 * within the window, contain only markers and fillers, and its marker sequence must equal one
 * behavior's markers exactly.
 */
export function classify(response: ArrayLike<number>, behaviors: readonly (readonly number[])[]): number {
  const seq: number[] = [];
  let ended = false;
  for (let i = 0; i < response.length; i++) {
    const t = response[i];
    if (t === EOS) {
      ended = true;
      break;
    }
    if (isMarker(t)) seq.push(t);
    else if (!isFiller(t)) return INVALID;
  }
  if (!ended) return INVALID;
  for (let b = 0; b < behaviors.length; b++) {
    const m = behaviors[b];
    if (m.length === seq.length && m.every((x, i) => x === seq[i])) return b;
  }
  return INVALID;
}

/**
 * Number of response tokens: up to and including the first EOS; a sampled PAD ends the response
 * before it (PAD means "no token" in the engine layout); all tokens when neither occurs.
 */
export function responseLength(response: ArrayLike<number>): number {
  for (let i = 0; i < response.length; i++) {
    if (response[i] === EOS) return i + 1;
    if (response[i] === PAD) return i;
  }
  return response.length;
}
