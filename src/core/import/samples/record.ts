// The per-sample line: what `--samples-out` writes for every sample and what the page's rollout
// viewer shows, built once here. A line names where the sample lies (`file` relative to the folder
// given, `index` 0-based: the line of a JSONL file, the row of a parquet file, the line of an
// OpenClaw record file), its step, the state and behavior the measure counted it under, and the
// score read (null when not judged), and for a chat prompt the turn kind (`turn`: what the turn
// answers — the first request, a tool's result, the user's follow-up; a session's turns share their
// session's state, this is the facet that tells them apart); with a gate, also the record the gate
// read (`fields`), the sample's `session`, its place in the step's judging order (`judge_order`) and
// the `decision`.
// Counted per step and state, the lines' behaviors are the frames' support/behavior_dist shares
// (sharesOf; tested in samples.test.ts).
import type { FieldRecord, GateDecision, JudgingOrder } from '../../gates/index';
import type { ImportedSample } from '../types';
import { chatTurnKind, type TurnKind } from '../discover/chat';

/** What the gate decided for the sample (the gate's GateDecision, under snake_case names). */
export interface SampleDecision {
  /** Index of the deciding rule; the number of rules when none matched (dropped). */
  rule: number;
  queued: boolean;
  loss_mask: 0 | 1;
  /** The RL term added to each response token's advantage. */
  reward: number;
  /** Weight of the teacher (OPD) term; 0 = none. */
  opd_weight: number;
  uses_hint: boolean;
}

export interface SampleRecord {
  step: number;
  /** The sample's file, relative to the folder given ("/"-separated). */
  file: string;
  /** 0-based: the line of a JSONL file, the row of a parquet file, the line of an OpenClaw record file. */
  index: number;
  state: string;
  behavior: string;
  /** The score read (the format's reward, or the --reward columns); null when not judged. */
  reward: number | null;
  /** A chat prompt's turn kind: 'first' (the first request), 'after-tool' (a tool's result), 'follow-up' (the user's next message); absent when the prompt is not a chat. */
  turn?: TurnKind;
  /** With a gate: the fields the gate read (a value a log cannot give, NaN, is written null). */
  fields?: Record<string, unknown>;
  session?: string;
  /** With a gate: the key its session's at-least-one counter was counted under, where it is not `session` (a turn decided after its session's end counts afresh). */
  counter_key?: string;
  /** With a gate: the sample's place (0-based) in its step's judging order. */
  judge_order?: number;
  decision?: SampleDecision;
}

/** `name` relative to `root` ("/"-separated; a name outside root is kept as it is). */
export function relativeFile(name: string, root: string): string {
  const n = name.replace(/\\/g, '/').replace(/^(\.\/)+/, '');
  const r = root.replace(/\\/g, '/').replace(/^(\.\/)+/, '').replace(/\/+$/, '');
  if (!r || r === '.') return n;
  return n.startsWith(`${r}/`) ? n.slice(r.length + 1) : n;
}

/** The turn kind of the last prompt read (a group's samples share their prompt and come together: a long session is parsed once). */
let lastTurn: { prompt: string; turn: TurnKind | null } = { prompt: '', turn: null };

/** A chat prompt's turn kind (null when the prompt is not a chat), read when the sample is read: a sample waiting for its labels keeps no prompt. */
export function turnOf(prompt: string): TurnKind | null {
  if (prompt !== lastTurn.prompt) lastTurn = { prompt, turn: chatTurnKind(prompt) };
  return lastTurn.turn;
}

/** The line of a sample as the measure counted it (no gate part yet). */
export function sampleRecord(s: Pick<ImportedSample, 'file' | 'line' | 'step' | 'reward'> & { turn?: TurnKind | null }, state: string, behavior: string, root = ''): SampleRecord {
  if (!(Number.isInteger(s.line) && s.line >= 1)) throw new Error(`${s.file}: sample line ${s.line} is not a 1-based line number`);
  return { step: s.step, file: relativeFile(s.file, root), index: s.line - 1, state, behavior, reward: s.reward, ...(s.turn ? { turn: s.turn } : {}) };
}

export function sampleDecision(d: GateDecision): SampleDecision {
  return { rule: d.rule, queued: d.queued, loss_mask: d.lossMask, reward: d.reward, opd_weight: d.opdWeight, uses_hint: d.usesHint };
}

/**
 * A step's lines with the gate's part: `fields[i]` and `decisions[i]` are what `decideInOrder`
 * gave the step's i-th sample, `sessions[i]` its session, `order` the step's judging order (its
 * counter keys, and sample indices first judged first).
 */
export function withGate(rows: readonly SampleRecord[], sessions: readonly string[], order: JudgingOrder, fields: readonly FieldRecord[], decisions: readonly GateDecision[]): SampleRecord[] {
  const n = rows.length;
  const { judged } = order;
  if (sessions.length !== n || judged.length !== n || order.session.length !== n || fields.length !== n || decisions.length !== n) throw new Error(`withGate: ${n} samples but ${sessions.length} sessions, ${judged.length} in judging order, ${fields.length} records, ${decisions.length} decisions`);
  const place = new Array<number>(n);
  judged.forEach((i, k) => (place[i] = k));
  return rows.map((r, i) => {
    const key = String(order.session[i]);
    return { ...r, fields: { ...fields[i] }, session: sessions[i], ...(key !== sessions[i] ? { counter_key: key } : {}), judge_order: place[i], decision: sampleDecision(decisions[i]) };
  });
}

/** One line of the samples file (JSON; NaN and ±Infinity are written null, as JSON has no such numbers). */
export function sampleLine(r: SampleRecord): string {
  return JSON.stringify(r);
}

/** The step of a whole samples-file line (written first, so read without parsing the line); null when it is not one. */
export function sampleLineStep(line: string): number | null {
  const m = /^\{"step":(\d+),/.exec(line);
  return m && line.endsWith('}') ? Number(m[1]) : null;
}

/** A line of a samples file read back; null when it is not one (a line cut by a kill, another file's). */
export function sampleOfLine(line: string): SampleRecord | null {
  let x: unknown;
  try {
    x = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof x !== 'object' || x === null) return null;
  const r = x as Record<string, unknown>;
  const ok = Number.isInteger(r.step) && typeof r.file === 'string' && Number.isInteger(r.index) && typeof r.state === 'string' && typeof r.behavior === 'string' && (r.reward === null || typeof r.reward === 'number');
  return ok ? (r as unknown as SampleRecord) : null;
}

/** Per step, per state, each behavior's share of the state's lines: what the frames' support/behavior_dist/<state>/<behavior> hold. */
export function sharesOf(records: Iterable<Pick<SampleRecord, 'step' | 'state' | 'behavior'>>): Map<number, Map<string, Map<string, number>>> {
  const counts = new Map<number, Map<string, Map<string, number>>>();
  for (const r of records) {
    let byState = counts.get(r.step);
    if (!byState) counts.set(r.step, (byState = new Map()));
    let m = byState.get(r.state);
    if (!m) byState.set(r.state, (m = new Map()));
    m.set(r.behavior, (m.get(r.behavior) ?? 0) + 1);
  }
  for (const byState of counts.values())
    for (const m of byState.values()) {
      const n = [...m.values()].reduce((a, c) => a + c, 0);
      for (const [b, c] of m) m.set(b, c / n);
    }
  return counts;
}
