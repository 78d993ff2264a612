// The per-state × behavior counts a task fit reads (src/core/tasks/fit.ts), made where the import
// makes its other per-state counts (measure.ts, one step at a time, let go with the step). Only
// nonzero counts are written; an absent key is 0.
//   import/reward_count/<state>/<behavior>/<pos|zero|neg>: judged samples by the sign of the reward
//     (r > 0 → +1, r = 0 → 0, r < 0 → −1: the lab's judge truth is a vote in {+1, 0, −1});
//   import/reward_nonternary/<state>/<behavior>: of those, rewards not exactly −1, 0 or +1;
//   OpenClaw sessions only (records with has_next_state), within the step:
//   import/next_count/<state>/<behavior>/<next state>: the session's next turn was in that state;
//   import/end_count/<state>/<behavior>: the session had no later turn in the step;
//   import/no_next_count/<state>/<behavior>: the record had no next_state (no next message to judge from).
import type { ScalarsWith } from '../../measure/names';
import type { ImportedSample } from '../types';

export type RewardSign = 'pos' | 'zero' | 'neg';

/** The ternary vote of a scalar reward: its sign. */
export function rewardSign(r: number): RewardSign {
  return r > 0 ? 'pos' : r < 0 ? 'neg' : 'zero';
}

const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

export class FitCounts {
  private counts = new Map<string, number>();
  /** OpenClaw turns of the step: session → [turn, "state/behavior"]. */
  private sessions = new Map<string, [number, string][]>();

  add(s: ImportedSample, state: string, behavior: string): void {
    const key = `${state}/${behavior}`;
    if (s.reward !== null) {
      bump(this.counts, `import/reward_count/${key}/${rewardSign(s.reward)}`);
      if (s.reward !== 0 && s.reward !== 1 && s.reward !== -1) bump(this.counts, `import/reward_nonternary/${key}`);
    }
    const f = s.fields;
    if (!('has_next_state' in f)) return;
    if (f.has_next_state !== true) bump(this.counts, `import/no_next_count/${key}`);
    const session = String(f.session_id);
    const turn = typeof f.turn === 'number' ? f.turn : Number(f.turn);
    const turns = this.sessions.get(session);
    if (turns) turns.push([turn, key]);
    else this.sessions.set(session, [[turn, key]]);
  }

  /** The step's counts as scalars (the sessions' transitions counted now). */
  scalars(out: ScalarsWith): void {
    const all = new Map(this.counts);
    for (const turns of this.sessions.values()) {
      turns.sort((a, b) => a[0] - b[0]);
      turns.forEach(([, key], i) => {
        if (i + 1 < turns.length) bump(all, `import/next_count/${key}/${turns[i + 1][1].split('/')[0]}`);
        else bump(all, `import/end_count/${key}`);
      });
    }
    for (const [k, v] of [...all].sort((a, b) => (a[0] < b[0] ? -1 : 1))) out[k as keyof ScalarsWith] = v;
  }
}
