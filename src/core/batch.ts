// From queued samples to a TrainBatch: π_old (trainer recompute or rollout log-probs), the OPD
// teacher's log-probs (frozen base, hint in the fixed hint slot), the KL reference, per-token
// advantages and loss masks, and the rollout/train log-prob gap.
import type { Config } from './config';
import type { PolicyEngine, TrainBatch, WeightsHandle } from './engine';
import { T, responseRange, sampleRow } from './credit/advantage';
import type { SampleRecord } from './gates/sample';
import type { GateDecision } from './gates/decision';
import type { JudgedTurn } from './credit/types';
import { chooseHint } from './tasks/judge';
import type { Task } from './tasks/types';
import { CONTEXT, HINT_SLOT } from './tasks/vocab';

export interface Queued {
  turn: JudgedTurn;
  decision: GateDecision;
  /** The sample's fields as the gate saw them. */
  fields: SampleRecord;
}

export interface BuiltBatch {
  batch: TrainBatch;
  /** 1 on every response prediction of a queued row (whatever its loss mask). */
  responseMask: Float32Array;
  /** Mean |logπ_rollout − logπ_train| over response tokens, before the update. */
  rolloutGap: number;
  /** Per-row advantages, for the trace. */
  rowAdvantages: Float32Array[];
}

export async function buildTrainBatch(engine: PolicyEngine, task: Task, items: readonly Queued[], c: Config, base: WeightsHandle): Promise<BuiltBatch> {
  const B = items.length;
  const tokens = new Int32Array(B * CONTEXT);
  items.forEach((q, b) => tokens.set(q.turn.tokens, b * CONTEXT));
  const recomputed = (await engine.score({ batch: B, tokens, temperature: c.temperature })).logp;
  const rolloutLogp = new Float32Array(B * T);
  items.forEach((q, b) => rolloutLogp.set(q.turn.rolloutLogp, b * T));
  const oldLogp = c.piOldSource === 'recompute' ? recomputed : rolloutLogp;

  const teacher = new Float32Array(B * T);
  const teacherRows = items.flatMap((q, b) => (q.decision.opdWeight !== 0 && q.decision.usesHint ? [b] : []));
  if (teacherRows.length) {
    const tt = new Int32Array(teacherRows.length * CONTEXT);
    teacherRows.forEach((b, i) => {
      tt.set(items[b].turn.tokens, i * CONTEXT);
      // the teacher's context: the turn's longest +1 hint (what usesHint names)
      tt[i * CONTEXT + HINT_SLOT] = task.behaviors[chooseHint(items[b].turn.hintVotes, 0)!.behavior].hint;
    });
    const tl = (await engine.score({ batch: teacherRows.length, tokens: tt, temperature: c.temperature, weights: base })).logp;
    teacherRows.forEach((b, i) => teacher.set(tl.subarray(i * T, (i + 1) * T), b * T));
  }
  const refLogp = c.klCoef > 0 ? (await engine.score({ batch: B, tokens, temperature: c.temperature, weights: base })).logp : new Float32Array(B * T);

  const advantages = new Float32Array(B * T);
  const lossMask = new Float32Array(B * T);
  const responseMask = new Float32Array(B * T);
  const rowAdvantages: Float32Array[] = [];
  let gapSum = 0;
  let gapCount = 0;
  items.forEach((q, b) => {
    const row = sampleRow(q.turn, q.decision, oldLogp.subarray(b * T, (b + 1) * T), teacher.subarray(b * T, (b + 1) * T), c.opdAdvClamp);
    advantages.set(row.advantages, b * T);
    lossMask.set(row.lossMask, b * T);
    rowAdvantages.push(row.advantages);
    const [lo, hi] = responseRange(q.turn);
    for (let t = lo; t < hi; t++) {
      responseMask[b * T + t] = 1;
      gapSum += Math.abs(rolloutLogp[b * T + t] - recomputed[b * T + t]);
      gapCount++;
    }
  });
  return {
    batch: { batch: B, tokens, advantages, oldLogp, refLogp, lossMask },
    responseMask,
    rolloutGap: gapCount ? gapSum / gapCount : 0,
    rowAdvantages,
  };
}

/** Contiguous minibatch [lo, hi) of a TrainBatch. */
export function sliceBatch(b: TrainBatch, lo: number, hi: number): TrainBatch {
  const sl = (a: Float32Array) => a.slice(lo * T, hi * T);
  return { batch: hi - lo, tokens: b.tokens.slice(lo * CONTEXT, hi * CONTEXT), advantages: sl(b.advantages), oldLogp: sl(b.oldLogp), refLogp: sl(b.refLogp), lossMask: sl(b.lossMask) };
}
