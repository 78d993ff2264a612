// Combine (OpenClaw): hint ∧ eval ±1 → both signals; hint only → OPD with r = 0; eval only → RL
// sample; neither → dropped. A_t = w_opd·(logπ_T − logπ_old) + w_rl·r.
// ESR = queued / served; the four cases are counted separately.
import { chooseHint } from '../tasks/judge';
import { dropped, type Gate, type GateDecision } from './types';

export const combine: Gate = (turns, opts) => {
  const counts = { case_both: 0, case_hint_only: 0, case_eval_only: 0, case_neither: 0 };
  const decisions: GateDecision[] = turns.map((t) => {
    const hint = t.hasNext ? chooseHint(t.hintVotes, opts.hintMinLength) : null;
    const evaluated = t.hasNext && t.reward !== 0;
    if (hint && evaluated) {
      counts.case_both++;
      return { queued: true, lossMask: 1, reward: opts.wRl * t.reward, opdWeight: opts.wOpd, hint, reasons: ['hint-accepted', 'both'] };
    }
    if (hint) {
      counts.case_hint_only++;
      return { queued: true, lossMask: 1, reward: 0, opdWeight: opts.wOpd, hint, reasons: ['hint-accepted', 'hint-only'] };
    }
    if (evaluated) {
      counts.case_eval_only++;
      return { queued: true, lossMask: 1, reward: opts.wRl * t.reward, opdWeight: 0, hint: null, reasons: ['hint-rejected', 'eval-only'] };
    }
    counts.case_neither++;
    return dropped(t.hasNext ? ['hint-rejected', 'score-zero', 'dropped-neither'] : ['no-next-state', 'dropped-neither']);
  });
  const queued = decisions.filter((d) => d.queued).length;
  return { decisions, esr: turns.length ? queued / turns.length : 0, esrNum: queued, esrDen: turns.length, counts };
};
