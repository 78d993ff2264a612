// A forecast's report in words (the CLI's lines, the panel's sentences): per state its mean error
// against the naive one, how many seeds beat it, the interval of the difference, and which way the
// log and the forecast moved (and whether the log moved where the fitted judge's rewards push).
import { intervalText } from '../experiment/stats';
import type { ErrorSummary, ForecastReport, Move } from './fit-forecast';

const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '—');
const signed = (x: number) => (Number.isFinite(x) ? `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(2)}` : '—');

/** "error 0.120 (naive 0.150): closer than naive in 6 of 8 seeds, p = 0.29; …". */
export function summaryWords(s: ErrorSummary): string {
  const head = `mean error ${f3(s.forecast)} (seeds' mean shares ${f3(s.ensemble)}) vs naive ${f3(s.naive)} (the log's own noise: ${f3(s.floor)})`;
  if (!s.paired) return `${head}: no seed to compare`;
  const p = s.paired;
  const verdict = s.forecast < s.naive ? 'forecast closer' : s.forecast > s.naive ? 'naive closer' : 'a tie';
  return `${head} — ${verdict}: forecast closer in ${p.favourB} of ${p.n} seeds (sign test p = ${p.signTestP.toPrecision(2)}); forecast − naive ${signed(p.meanDiff)}, ${intervalText(p, signed)}`;
}

/** Which way the log and the forecast moved, and whether the log's move is one the rewards push. */
export function moveWords(m: Move, behaviors: readonly string[]): string {
  const kind = m.log.rank === 1 ? "the fit's best-rewarded behavior" : `rank ${m.log.rank} by the fit's expected vote (not the best)`;
  const same = m.log.behavior === m.forecast.behavior ? 'the same' : 'a different one';
  return `the log gained most on ${behaviors[m.log.behavior]} (${signed(m.log.gain)}, ${kind}); the forecast on ${behaviors[m.forecast.behavior]} (${signed(m.forecast.gain)}): ${same}`;
}

/** One line per state and one overall. */
export function forecastWords(r: ForecastReport, names: { states: readonly string[]; behaviors: readonly string[] }): string[] {
  const steps = r.states[0]?.rows ?? [];
  const window = steps.length ? `steps ${steps[0].step}–${steps.at(-1)!.step}` : 'no step';
  return [
    `forecast from step ${r.from}, ${window}, ${r.seeds} seeds; error = total variation distance of the behavior shares`,
    ...r.states.map((s) => `${names.states[s.state]}: ${summaryWords(s.summary)}; ${moveWords(s.move, names.behaviors)}`),
    `every state: ${summaryWords(r.overall)}`,
  ];
}
