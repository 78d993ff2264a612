// The token level of a fitted task: per state × behavior, its responses' length distribution and
// filler diversity, from the import's counts over the base window (src/core/import/measure/fit-tokens.ts),
// mapped onto the model's slots by two stated rules (docs/tasks.md "Fitted from a log"):
//   length     a fitted behavior is one marker, so a response holds it and at most FILLER_SLOTS = 11
//              fillers before EOS. A log response of L tokens gets k = round((L − L_min)·s) fillers,
//              L_min the shortest response of the kept states × behaviors in the window; s = 1 when
//              the log's range L_max − L_min fits the 11 slots, else 11 / (L_max − L_min) (scaled
//              down: the notes say so). The lengths' differences are kept; their offset is not.
//   diversity  the filler tokens of a behavior repeat at rate r = Σ c(c − 1) / N(N − 1) (tokens in
//              every response of the cell are its form, not fillers); fillers drawn uniformly from F
//              tokens repeat at 1/F, so F = round(1/r), clamped to 1..20 (the model's filler tokens).
//              Responses that are all form (2 or more, no filler left) → F = 1; one response or none
//              of the cell has fillers to count → 20, the lab's, and a note.
import { TOKEN_CAP } from '../import/measure/measure';
import type { FitChoice } from './fit-choose';
import { sharesOf } from './fit-dist';
import type { FitNotes } from './fit-notes';
import type { WindowSums } from './fit-sums';
import type { ResponseSpec } from './spec';
import { FILLER_COUNT, RESPONSE_MAX } from './vocab';

/** Fillers a fitted response can hold: the window minus its one marker. */
export const FILLER_SLOTS = RESPONSE_MAX - 1;

/** How a log length L maps to fillers: k = round((L − lMin)·scale). */
export interface LengthRule {
  lMin: number;
  lMax: number;
  scale: number;
}

/** The counts the token level is read from (a window of an import's frames, or any tally of the same keys). */
export type TokenCounts = Pick<WindowSums, 'lengths' | 'fillerRepeats' | 'fillerPairs'>;

export const fillersOf = (L: number, r: LengthRule): number => Math.min(FILLER_SLOTS, Math.round((L - r.lMin) * r.scale));

/** Filler tokens of a repeat rate: round(1/r) within 1..20. */
export const fillerTokensOf = (rate: number): number => Math.min(FILLER_COUNT, Math.max(1, Math.round(1 / rate)));

/** One state × behavior's token level: the log's, in the model's tokens (marker + fillers, before EOS). */
export interface TokenCell {
  state: string;
  behavior: string;
  responses: number;
  /** Mean length in the log's tokens (words and punctuation, or the log's own tokens). */
  logLength: number;
  /** Mean and standard error of 1 + k, the fitted length of each response. */
  length: number;
  lengthSe: number;
  /** The fillers' repeat rate; null where nothing could be counted. */
  repeatRate: number | null;
  /** The fitted filler tokens (the diversity rule above). */
  fillerTokens: number;
}

/** Per state, over its behaviors: mean fitted length (± SE) and the repeat rate, responses-weighted over cells with one. */
export interface TokenState {
  state: string;
  responses: number;
  length: number;
  lengthSe: number;
  repeatRate: number | null;
}

export interface FitTokens {
  rule: LengthRule;
  cells: TokenCell[];
  states: TokenState[];
}

function meanSe(xs: readonly (readonly [number, number])[]): { n: number; mean: number; se: number } {
  const n = xs.reduce((a, [, c]) => a + c, 0);
  if (!n) return { n: 0, mean: 0, se: 0 };
  const mean = xs.reduce((a, [x, c]) => a + x * c, 0) / n;
  const v = n > 1 ? xs.reduce((a, [x, c]) => a + c * (x - mean) ** 2, 0) / (n - 1) : 0;
  return { n, mean, se: Math.sqrt(v / n) };
}

/** The length rule of a set of length histograms (index = L): the shortest and longest response. */
export function lengthRuleOf(hists: readonly (readonly number[])[]): LengthRule | null {
  let lMin = Infinity;
  let lMax = -Infinity;
  for (const h of hists) h.forEach((c, L) => c > 0 && ((lMin = Math.min(lMin, L)), (lMax = Math.max(lMax, L))));
  if (lMin === Infinity) return null;
  const range = lMax - lMin;
  return { lMin, lMax, scale: range <= FILLER_SLOTS ? 1 : FILLER_SLOTS / range };
}

/** The token level of the cells (states × behaviors, the counts' names) under a rule; spec names by `name`. */
export function tokenLevel(counts: TokenCounts, states: readonly string[], behaviors: readonly string[], rule: LengthRule, name: { s(x: string): string; b(x: string): string } = { s: (x) => x, b: (x) => x }): FitTokens {
  const cells: TokenCell[] = [];
  const perState: TokenState[] = [];
  for (const s of states) {
    const all: [number, number][] = [];
    let rated = 0;
    let rateSum = 0;
    for (const b of behaviors) {
      const h = counts.lengths(s, b);
      const mapped = h.map((c, L) => [1 + fillersOf(L, rule), c] as [number, number]).filter(([, c]) => c > 0);
      const { n, mean, se } = meanSe(mapped);
      if (!n) continue;
      all.push(...mapped);
      const pairs = counts.fillerPairs(s, b);
      const repeatRate = pairs > 0 ? counts.fillerRepeats(s, b) / pairs : null;
      const fillerTokens = repeatRate !== null ? (repeatRate > 0 ? fillerTokensOf(repeatRate) : FILLER_COUNT) : n > 1 ? 1 : FILLER_COUNT;
      if (repeatRate !== null) {
        rated += n;
        rateSum += n * repeatRate;
      }
      cells.push({ state: name.s(s), behavior: name.b(b), responses: n, logLength: meanSe(h.map((c, L) => [L, c] as [number, number])).mean, length: mean, lengthSe: se, repeatRate, fillerTokens });
    }
    const t = meanSe(all);
    if (t.n) perState.push({ state: name.s(s), responses: t.n, length: t.mean, lengthSe: t.se, repeatRate: rated ? rateSum / rated : null });
  }
  return { rule, cells, states: perState };
}

/**
 * The `responses` of each kept state (index = the spec's states) and the token level they come from.
 * A behavior with no response in the window has no entry (its responses are the lab's grammar).
 * Null when the window has no response of a kept behavior.
 */
export function fitResponses(w: WindowSums, c: FitChoice, steps: string, notes: FitNotes): { responses: Record<string, ResponseSpec>[]; tokens: FitTokens } | null {
  const rule = lengthRuleOf(c.states.flatMap((s) => c.behaviors.map((b) => w.lengths(s, b))));
  if (!rule) return null;
  const tokens = tokenLevel(w, c.states, c.behaviors, rule, { s: c.sName, b: c.bName });
  const responses = c.states.map(() => ({}) as Record<string, ResponseSpec>);
  const diverse: string[] = [];
  const single: string[] = [];
  const fixed: string[] = [];
  for (const cell of tokens.cells) {
    const i = c.states.findIndex((s) => c.sName(s) === cell.state);
    const b = c.behaviors.find((x) => c.bName(x) === cell.behavior)!;
    const h = w.lengths(c.states[i], b);
    const perSlot = new Array<number>(FILLER_SLOTS + 1).fill(0);
    h.forEach((n, L) => n > 0 && (perSlot[fillersOf(L, rule)] += n));
    while (perSlot.length > 1 && perSlot.at(-1) === 0) perSlot.pop();
    const fillers = sharesOf(perSlot);
    responses[i][cell.behavior] = { fillers, fillerTokens: cell.fillerTokens };
    const at = `${cell.state}/${cell.behavior}`;
    const r = cell.repeatRate;
    if (r !== null && (r === 0 || 1 / r > FILLER_COUNT + 0.5)) diverse.push(r === 0 ? `${at} (no word repeats)` : `${at} (r = ${r.toFixed(3)}, 1/r = ${Math.round(1 / r)})`);
    if (r === null && cell.responses === 1) single.push(at);
    if (r === null && cell.responses > 1) fixed.push(`${at} (${cell.responses} responses)`);
  }
  const fillerPath = 'states[].responses[].fillerTokens';
  if (diverse.length) notes.add('tokens', fillerPath, `the fillers of ${diverse.join(', ')} are more diverse than the model's ${FILLER_COUNT} filler tokens can hold (1/r > ${FILLER_COUNT}; few fillers in steps ${steps} make r noisy): fillerTokens ${FILLER_COUNT}`);
  if (single.length) notes.add('tokens', fillerPath, `${single.join(', ')}: one response in steps ${steps}, nothing to tell its form from its fillers: fillerTokens ${FILLER_COUNT} (the lab's)`);
  if (fixed.length) notes.add('tokens', fillerPath, `${fixed.join(', ')}: every word is in each of its responses in steps ${steps} (a fixed form, no fillers): fillerTokens 1`);
  const range = `${rule.lMin}..${rule.lMax} tokens`;
  const lengthPath = 'states[].responses[].fillers';
  notes.add('mapping', lengthPath, `response length: a fitted response is its marker and round((L − L_min)·s) fillers, L = a response's tokens in the log (its own tokens, else words and punctuation marks), L_min = ${rule.lMin}, the shortest in steps ${steps}; s = ${rule.scale === 1 ? `1 (the log's lengths span ${range}, which fits the model's ${FILLER_SLOTS} filler slots)` : rule.scale.toFixed(4)}; filler diversity: fillerTokens = round(1 / the fillers' repeat rate), 1..${FILLER_COUNT} (docs/tasks.md)`);
  if (rule.scale < 1) notes.add('tokens', lengthPath, `the log's responses span ${range} (a range of ${rule.lMax - rule.lMin}); the model holds a marker and at most ${FILLER_SLOTS} fillers (${RESPONSE_MAX} tokens before EOS): lengths are scaled by s = ${FILLER_SLOTS}/${rule.lMax - rule.lMin} = ${rule.scale.toFixed(4)}, so a difference of one token in the log is ${rule.scale.toFixed(2)} filler`);
  if (rule.lMax >= TOKEN_CAP) notes.add('tokens', lengthPath, `responses of ${TOKEN_CAP} tokens or more count as ${TOKEN_CAP} (the import reads the first ${TOKEN_CAP} tokens of a response)`);
  return { responses, tokens };
}

/** Mean length of a behavior's responses under a ResponseSpec, in the model's tokens before EOS: its markers + E[k]. */
export const specLength = (r: ResponseSpec, markers: number): number => markers + r.fillers.reduce((a, p, k) => a + k * p, 0);
