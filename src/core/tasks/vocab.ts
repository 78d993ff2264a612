// One vocabulary layout for every task (vocab ≤ 64, context 16).
//
// Prompt (3 tokens, fixed slots): [BOS, state token, hint slot]. The hint slot holds NOHINT or a hint
// token, so a hinted prompt has the same length as the plain one and the OPD teacher's log-probs line
// up position by position with the student's.
// Response (positions 3..15, at most RESPONSE_MAX tokens + EOS): behavior marker tokens in a fixed
// order, with interchangeable filler tokens between them (surface variety without meaning).

export const PAD = 0;
export const BOS = 1;
export const EOS = 2;
export const NOHINT = 3;

export const CONTEXT = 16;
export const PROMPT_LENGTH = 3;
export const HINT_SLOT = 2;
/** Generated tokens per response, EOS included. */
export const NEW_TOKENS = CONTEXT - PROMPT_LENGTH;
/** Longest response body (markers + fillers), EOS excluded. */
export const RESPONSE_MAX = NEW_TOKENS - 1;

export const STATE_NAMES = [
  'strategies:math', 'strategies:code', 'strategies:explain',
  'assistant:code', 'assistant:analysis', 'assistant:chat',
  'toolchain:start', 'toolchain:results', 'toolchain:empty', 'toolchain:doc',
] as const;
export type StateKey = (typeof STATE_NAMES)[number];

export const MARKER_NAMES = ['PLAN', 'STEP', 'ANSWER', 'SEARCH', 'CHECK', 'GREET', 'SUMMARY', 'CODE', 'ASK', 'LIKE', 'FORMAL', 'READ'] as const;
export type MarkerName = (typeof MARKER_NAMES)[number];

export const HINT_NAMES = [
  'strategies:decompose', 'strategies:direct', 'strategies:search-first', 'strategies:verify',
  'assistant:template', 'assistant:direct-code', 'assistant:clarify', 'assistant:analogy', 'assistant:formal',
  'toolchain:search', 'toolchain:read', 'toolchain:answer',
] as const;
export type HintKey = (typeof HINT_NAMES)[number];

export const FILLER_COUNT = 20;

/** Token slots of each class: what any task's vocabulary can name (the model's 64-token layout). */
export const STATE_SLOTS = STATE_NAMES.length;
export const MARKER_SLOTS = MARKER_NAMES.length;
export const HINT_SLOTS = HINT_NAMES.length;

const STATE_BASE = 4;
const MARKER_BASE = STATE_BASE + STATE_NAMES.length;
const HINT_BASE = MARKER_BASE + MARKER_NAMES.length;
export const FILLER_BASE = HINT_BASE + HINT_NAMES.length;
export const VOCAB_USED = FILLER_BASE + FILLER_COUNT;
export const VOCAB = 64;

export function stateToken(key: StateKey): number {
  return STATE_BASE + STATE_NAMES.indexOf(key);
}
export function markerToken(name: MarkerName): number {
  return MARKER_BASE + MARKER_NAMES.indexOf(name);
}
export function hintToken(key: HintKey): number {
  return HINT_BASE + HINT_NAMES.indexOf(key);
}
export function fillerToken(i: number): number {
  return FILLER_BASE + i;
}

export const isMarker = (t: number): boolean => t >= MARKER_BASE && t < HINT_BASE;
export const isFiller = (t: number): boolean => t >= FILLER_BASE && t < VOCAB_USED;
export const isHint = (t: number): boolean => t >= HINT_BASE && t < FILLER_BASE;

/** Names of the token slots (a task may rename them; the lab's own names by default). */
export interface TokenNames {
  states: readonly string[];
  markers: readonly string[];
  hints: readonly string[];
}
export const LAB_TOKEN_NAMES: TokenNames = { states: STATE_NAMES, markers: MARKER_NAMES, hints: HINT_NAMES };

/** Token of the i-th slot of a class. */
export function slotToken(kind: keyof TokenNames, i: number): number {
  return (kind === 'states' ? STATE_BASE : kind === 'markers' ? MARKER_BASE : HINT_BASE) + i;
}

/** Human-readable token, for traces. */
export function tokenName(t: number, names: TokenNames = LAB_TOKEN_NAMES): string {
  if (t === PAD) return '·';
  if (t === BOS) return '<s>';
  if (t === EOS) return '</s>';
  if (t === NOHINT) return '<nohint>';
  if (t < MARKER_BASE) return `[${names.states[t - STATE_BASE] ?? `state${t - STATE_BASE}`}]`;
  if (t < HINT_BASE) return names.markers[t - MARKER_BASE] ?? `M${t - MARKER_BASE}`;
  if (t < FILLER_BASE) return `{hint ${names.hints[t - HINT_BASE] ?? t - HINT_BASE}}`;
  if (t < VOCAB_USED) return `w${t - FILLER_BASE}`;
  return `?${t}`;
}

/** Prompt of one row: [BOS, state, hint or NOHINT]. */
export function promptTokens(state: number, hint: number | null): number[] {
  return [BOS, state, hint ?? NOHINT];
}
