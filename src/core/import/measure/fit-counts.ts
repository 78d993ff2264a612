// The per-state × behavior counts a task fit reads (src/core/tasks/fit.ts), made where the import
// makes its other per-state counts (measure.ts, one step at a time, let go with the step), under the
// keys of fit-keys.ts. Only nonzero counts are written; an absent key is 0.
//   reward_count/<state>/<behavior>/<pos|zero|neg>: judged samples by the sign of the reward
//     (the lab's judge truth is a vote in {+1, 0, −1});
//   reward_nonternary/<state>/<behavior>: of those, rewards not exactly −1, 0 or +1;
//   OpenClaw sessions only (records with has_next_state), within the step:
//   next_count/<state>/<behavior>/<next state>: the session's next turn was in that state;
//   end_count/<state>/<behavior>: the session had no later turn in the step;
//   no_next_count/<state>/<behavior>: the record had no next_state (no next message to judge from);
//   and the token level of each state × behavior: response lengths, filler repeats (fit-tokens.ts).
import type { ScalarsWith } from '../../measure/names';
import { endCountKey, nextCountKey, noNextCountKey, rewardCountKey, rewardNonternaryKey, rewardSign, type FitCountKey } from './fit-keys';
import { ResponseTokens } from './fit-tokens';
import type { ImportedSample } from '../types';

export { rewardSign, type RewardSign } from './fit-keys';

const bump = (m: Map<FitCountKey, number>, k: FitCountKey) => m.set(k, (m.get(k) ?? 0) + 1);

interface SessionTurn {
  turn: number;
  state: string;
  behavior: string;
}

/** What the fit counts read of a sample besides its labels (no text: made when it is read, measure.ts). */
export interface FitFacts {
  reward: number | null;
  /** An OpenClaw record's session, turn and whether it has a next state; null for other logs. */
  session: { id: string; turn: number; hasNext: boolean } | null;
}

export function fitFacts(s: ImportedSample): FitFacts {
  const f = s.fields;
  if (!('has_next_state' in f)) return { reward: s.reward, session: null };
  return { reward: s.reward, session: { id: String(f.session_id), turn: typeof f.turn === 'number' ? f.turn : Number(f.turn), hasNext: f.has_next_state === true } };
}

export class FitCounts {
  private counts = new Map<FitCountKey, number>();
  /** OpenClaw turns of the step, by session. */
  private sessions = new Map<string, SessionTurn[]>();
  private tokens = new ResponseTokens();

  /** A sample of the step, its state and behavior, and its tokens (the import's, capped: measure.ts). */
  add(s: FitFacts, state: string, behavior: string, tokens: readonly string[]): void {
    this.tokens.add(state, behavior, tokens);
    if (s.reward !== null) {
      bump(this.counts, rewardCountKey(state, behavior, rewardSign(s.reward)));
      if (s.reward !== 0 && s.reward !== 1 && s.reward !== -1) bump(this.counts, rewardNonternaryKey(state, behavior));
    }
    const f = s.session;
    if (!f) return;
    if (!f.hasNext) bump(this.counts, noNextCountKey(state, behavior));
    const t: SessionTurn = { turn: f.turn, state, behavior };
    const turns = this.sessions.get(f.id);
    if (turns) turns.push(t);
    else this.sessions.set(f.id, [t]);
  }

  /** The step's counts as scalars (the sessions' transitions counted now). */
  scalars(out: ScalarsWith): void {
    const all = new Map(this.counts);
    for (const turns of this.sessions.values()) {
      turns.sort((a, b) => a.turn - b.turn);
      turns.forEach((t, i) => bump(all, i + 1 < turns.length ? nextCountKey(t.state, t.behavior, turns[i + 1].state) : endCountKey(t.state, t.behavior)));
    }
    for (const [k, v] of [...all].sort((a, b) => (a[0] < b[0] ? -1 : 1))) out[k] = v;
    this.tokens.scalars(out);
  }

  /** Entries held for the token level (what the bounded-memory test counts). */
  get entries(): number {
    return this.tokens.entries;
  }
}
