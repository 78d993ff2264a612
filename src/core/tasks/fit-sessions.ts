// Sessions of a fitted task (OpenClaw records only): a state × behavior whose sessions went on has
// next = the observed next-state mix; one that ended them in at least half its turns, 'end';
// nextMessage = false only when none of its turns had a next state.
import type { FitChoice } from './fit-choose';
import { sharesOf } from './fit-dist';
import { pct, type FitNotes } from './fit-notes';
import { hasSessions, type FitSource, type WindowSums } from './fit-sums';
import { INVALID_NAME, type TransitionSpec, type TruthRow } from './spec';

export interface SessionShape {
  /** The import has sessions (OpenClaw). */
  sessions: boolean;
  kind: 'multi-turn' | 'single-turn';
  /** Mean turns per session; null without sessions. */
  sessionTurns: number | null;
}

export function sessionShape(source: FitSource, all: WindowSums, { states, behaviors }: FitChoice, notes: FitNotes): SessionShape {
  const sessions = hasSessions(source);
  if (!sessions) {
    notes.add('session', 'kind', `a ${source.format} log has no sessions: single-turn (every action ends the session)`);
    return { sessions, kind: 'single-turn', sessionTurns: null };
  }
  const pairs = states.flatMap((s) => behaviors.map((b) => [s, b] as const));
  const anyNext = pairs.some(([s, b]) => states.some((t) => all.next(s, b, t) > 0));
  const turns = pairs.reduce((a, [s, b]) => a + all.count(s, b), 0);
  const ends = pairs.reduce((a, [s, b]) => a + all.ends(s, b), 0);
  const sessionTurns = ends ? turns / ends : null;
  notes.add('session', 'kind', anyNext
    ? `sessions go on for ${sessionTurns?.toFixed(2)} turns on average: multi-turn; set sessionTurns near it (a session's last turn has no next message in the lab)`
    : 'every session of the log has one turn: single-turn (every action ends the session)');
  return { sessions, kind: anyNext ? 'multi-turn' : 'single-turn', sessionTurns };
}

/** What follows behavior `b` in state `s`: the next-state mix, or the session's end. */
export function transitionOf(shape: SessionShape, all: WindowSums, choice: FitChoice, s: string, b: string, truth: TruthRow, path: string, notes: FitNotes): TransitionSpec {
  const t: TransitionSpec = { truth, hint: null, next: 'end' };
  if (!shape.sessions) return t;
  const obs = all.count(s, b);
  const noNext = all.noNext(s, b);
  if (obs > 0 && noNext === obs) t.nextMessage = false;
  else if (noNext > 0) notes.add('session', `${path}.nextMessage`, `${pct(noNext / obs)} of "${b}" turns in state "${s}" had no next state; the spec says a next message exists (the lab's last turn of a session never has one)`);
  if (shape.kind === 'single-turn') return t;
  const next = choice.states.map((x) => all.next(s, b, x));
  const going = next.reduce((a, x) => a + x, 0);
  const ends = all.ends(s, b);
  const endShare = `"${b}" in state "${s}" ended its session in ${pct(ends / (ends + going))} of its turns`;
  if (going === 0 || ends >= going) {
    if (going > 0) notes.add('session', `${path}.next`, `${endShare}: next = end (a spec cannot mix ending and going on)`);
    if (going + ends === 0 && b !== INVALID_NAME) notes.add('session', `${path}.next`, `"${b}" in state "${s}" was never seen in a session: next = end`, true);
    return t;
  }
  if (ends > 0) notes.add('session', `${path}.next`, `${endShare}: the spec goes on (the session length comes from sessionTurns)`);
  const shares = sharesOf(next);
  t.next = Object.fromEntries(choice.states.flatMap((x, k) => (next[k] ? [[choice.sName(x), shares[k]]] : [])));
  return t;
}
