// The rows of FitTokens.svelte: per state × behavior, the log's token level over the fit's base
// window (the core's FitTokens, in the model's tokens) beside the fitted task's (its spec's
// responses), and whether the model could hold what the log has.
import type { FitResult } from '../../core/tasks/fit';
import { FILLER_SLOTS, specLength } from '../../core/tasks/fit-responses';
import { FILLER_COUNT } from '../../core/tasks/vocab';

export interface TokenRow {
  state: string;
  behavior: string;
  responses: number;
  /** The log's mean length in its own tokens, and mapped to the model's (± SE). */
  logTokens: number;
  logLength: number;
  logLengthSe: number;
  /** The fitted task's mean length (markers + E[fillers]). */
  fittedLength: number;
  /** 1 / the log's filler repeat rate (Infinity: no word repeats; null: nothing to count). */
  logWords: number | null;
  fillerTokens: number;
  /** What the model could not hold: the diversity (1/r > 20); the length is scaled for every row when rule.scale < 1. */
  tooDiverse: boolean;
}

export function tokenRows(fit: FitResult): TokenRow[] {
  if (!fit.tokens) return [];
  const markers = new Map(fit.spec.behaviors.map((b) => [b.name, b.markers.length]));
  return fit.tokens.cells.map((c) => {
    const r = fit.spec.states.find((s) => s.name === c.state)?.responses?.[c.behavior];
    const logWords = c.repeatRate === null ? null : c.repeatRate === 0 ? Infinity : 1 / c.repeatRate;
    return {
      state: c.state, behavior: c.behavior, responses: c.responses, logTokens: c.logLength, logLength: c.length, logLengthSe: c.lengthSe,
      fittedLength: r ? specLength(r, markers.get(c.behavior) ?? 1) : NaN, logWords, fillerTokens: r?.fillerTokens ?? FILLER_COUNT,
      tooDiverse: logWords !== null && logWords > FILLER_COUNT + 0.5,
    };
  });
}

/** The length rule in words, for the panel's caption. */
export function ruleText(fit: FitResult): string {
  const r = fit.tokens?.rule;
  if (!r) return 'no response in the base window: the lab\'s grammar';
  const scale = r.scale === 1 ? `s = 1: the log's lengths (${r.lMin}–${r.lMax} tokens) fit the model's ${FILLER_SLOTS} filler slots` : `s = ${r.scale.toFixed(3)}: the log's lengths (${r.lMin}–${r.lMax} tokens) are more than the model's ${FILLER_SLOTS} filler slots hold, scaled down`;
  return `marker + round((L − ${r.lMin})·s) fillers, ${scale}; filler tokens = round(1 / the fillers' repeat rate), 1–${FILLER_COUNT}`;
}
