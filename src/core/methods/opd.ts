// On-policy distillation with hindsight hints (OpenClaw OPD): the hint judge casts m votes, a +1
// vote with a hint of length ≥ minimum is accepted, the longest accepted hint wins. Without one the
// turn is dropped (never queued). Queued turns get A_t = logπ_teacher(a_t | s + hint) − logπ_old(a_t | s),
// computed in advantage.ts once the teacher has scored them.
// ESR = queued / served (bounded by the hint accept rate).
import { chooseHint } from '../tasks/judge';
import { dropped, type Gate, type GateDecision } from './types';

export const opd: Gate = (turns, opts) => {
  const decisions: GateDecision[] = turns.map((t) => {
    if (!t.hasNext) return dropped(['no-next-state']);
    const hint = chooseHint(t.hintVotes, opts.hintMinLength);
    if (!hint) return dropped(['hint-rejected']);
    return { queued: true, lossMask: 1, reward: 0, opdWeight: 1, hint, reasons: ['hint-accepted'] };
  });
  const queued = decisions.filter((d) => d.queued).length;
  return { decisions, esr: turns.length ? queued / turns.length : 0, esrNum: queued, esrDen: turns.length, counts: { hint_accepted: queued } };
};
