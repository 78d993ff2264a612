// Which number of a log is the judge's score. A format reads one by default (verl `score`, TRL the
// sum of its reward-function columns, OpenClaw the PRM `score`, generic JSONL `reward`); a user can
// name another: one field or a sum of named ones (`acc`, `accuracy_reward+think_format_reward`),
// read from the sample's scalar fields, and a threshold that turns a scalar score into a vote
// (r ≥ τ → +1, r ≤ τ' → −1, else 0; τ' = τ alone means r < τ → −1).
import type { ImportedSample } from '../types';

export interface RewardChoice {
  /** Fields summed into the reward (booleans count 1 / 0); empty = the format's own reward. */
  columns: string[];
  /** Scalar → vote: r ≥ pos → +1, r ≤ neg → −1 (r < pos when neg = pos), else 0. */
  threshold?: { pos: number; neg: number };
}

const COLUMN = /^[^\s+][^+]*$/;

/** `text`: "col" or "a+b" (empty: the format's own); `threshold`: "τ" or "τ,τ'" (empty: none). */
export function parseRewardChoice(text: string, threshold = ''): RewardChoice {
  const t = text.trim();
  const columns = t ? t.split('+').map((c) => c.trim()) : [];
  const bad = columns.find((c) => !COLUMN.test(c));
  if (bad !== undefined) throw new Error(`reward: expected a field name or names joined by "+" (e.g. acc, or accuracy_reward+think_format_reward), got ${JSON.stringify(text)}`);
  const choice: RewardChoice = { columns };
  const th = threshold.trim();
  if (th) {
    const parts = th.split(',').map((x) => x.trim());
    const nums = parts.map(Number);
    if (parts.length > 2 || parts.some((x) => x === '') || nums.some((x) => !Number.isFinite(x))) throw new Error(`reward threshold: expected τ or τ,τ' (numbers, e.g. 0.5 or 0.7,0.3), got ${JSON.stringify(threshold)}`);
    const [pos, neg = pos] = nums;
    if (neg > pos) throw new Error(`reward threshold: τ' (${neg}) must not be above τ (${pos})`);
    choice.threshold = { pos, neg };
  }
  return choice;
}

/** The choice in words, for the fit's notes and the import summary. */
export function describeReward(choice: RewardChoice | undefined): string {
  if (!choice || (!choice.columns.length && !choice.threshold)) return "the log's own reward (verl score, TRL the sum of the reward columns, OpenClaw the PRM score, JSONL reward)";
  const what = choice.columns.length ? `${choice.columns.length > 1 ? 'the sum of ' : 'field '}${choice.columns.join(' + ')}` : "the log's own reward";
  const t = choice.threshold;
  if (!t) return what;
  return `${what}, as a vote: r ≥ ${t.pos} → +1, ${t.neg === t.pos ? `r < ${t.pos}` : `r ≤ ${t.neg}`} → −1${t.neg === t.pos ? '' : ', else 0'}`;
}

/** Reads the chosen reward of each sample; counts what it could not find, to say so. */
export class RewardReader {
  /** Samples that had none of the chosen fields (not judged). */
  missing = 0;
  /** Samples that had at least one. */
  found = 0;
  /** Numeric fields of the first sample, for the message when a chosen field is in none. */
  private firstFields: string[] | null = null;

  constructor(readonly choice: RewardChoice) {}

  /** The sample's reward under the choice (null: not judged). */
  read(s: ImportedSample): number | null {
    this.firstFields ??= Object.keys(s.fields).filter((k) => typeof s.fields[k] === 'number' || typeof s.fields[k] === 'boolean');
    const r = this.choice.columns.length ? this.sum(s) : s.reward;
    if (r === null || !this.choice.threshold) return r;
    const { pos, neg } = this.choice.threshold;
    return r >= pos ? 1 : (neg === pos ? r < pos : r <= neg) ? -1 : 0;
  }

  private sum(s: ImportedSample): number | null {
    let total = 0;
    let any = false;
    for (const c of this.choice.columns) {
      if (!Object.hasOwn(s.fields, c)) continue;
      const v = s.fields[c];
      const x = typeof v === 'boolean' ? Number(v) : v;
      if (typeof x !== 'number' || !Number.isFinite(x)) continue; // null / NaN: that reward function did not apply
      total += x;
      any = true;
    }
    if (any) this.found++;
    else this.missing++;
    return any ? total : null;
  }

  /** Throws when the chosen fields were in no sample at all (a typo, or another format's name). */
  check(): void {
    if (!this.choice.columns.length || this.found > 0 || this.missing === 0) return;
    const seen = this.firstFields?.length ? this.firstFields.join(', ') : 'none';
    throw new Error(`reward: no sample has the field${this.choice.columns.length > 1 ? 's' : ''} ${this.choice.columns.join(', ')} (numeric fields of the first sample: ${seen})`);
  }
}
