// Binary RL (OpenClaw): A = r, one sample per prompt, no baseline. A turn with no next state or
// score 0 gets loss mask 0 but stays in the queue (or is dropped with maskZeroMode = 'drop');
// at-least-one promotes one 0-scored turn with a next state in a session without an effective
// sample (mask 1, but A = r = 0: no gradient).
// ESR = queued turns with r ≠ 0 / queued turns.
import type { Gate, GateDecision } from './types';

export const binaryRl: Gate = (turns, opts) => {
  const decisions: GateDecision[] = turns.map((t) => {
    if (!t.hasNext) return { queued: true, lossMask: 0, reward: 0, opdWeight: 0, hint: null, reasons: ['no-next-state'] };
    if (t.reward === 0) return { queued: true, lossMask: 0, reward: 0, opdWeight: 0, hint: null, reasons: ['score-zero'] };
    return { queued: true, lossMask: 1, reward: t.reward, opdWeight: 0, hint: null, reasons: ['effective'] };
  });
  let promoted = 0;
  if (opts.atLeastOne) {
    const sessions = new Map<number, number[]>();
    turns.forEach((t, i) => sessions.set(t.session, [...(sessions.get(t.session) ?? []), i]));
    for (const idx of sessions.values()) {
      if (idx.some((i) => decisions[i].lossMask === 1)) continue;
      const pick = idx.find((i) => turns[i].hasNext);
      if (pick === undefined) continue;
      decisions[pick] = { ...decisions[pick], lossMask: 1, reasons: [...decisions[pick].reasons, 'promoted-at-least-one'] };
      promoted++;
    }
  }
  if (opts.maskZeroMode === 'drop') {
    for (const d of decisions) {
      if (d.lossMask === 0) {
        d.queued = false;
        d.reasons.push('mask-zero-dropped');
      }
    }
  }
  const queued = decisions.filter((d) => d.queued);
  const effective = queued.filter((d) => d.lossMask === 1 && d.reward !== 0).length;
  return { decisions, esr: queued.length ? effective / queued.length : 0, esrNum: effective, esrDen: queued.length, counts: { promoted } };
};
