// What the rollout viewer keeps of every sample of a run: where it is (file, 0-based index: the
// JSONL line, the parquet row) and what the lab made of it (step, state, behavior, reward, the
// gate's rule and decision), in columns of small numbers with each distinct name stored once — no
// prompt, no response (those are read back from the files when a sample is shown, browse.ts).
// Filtering by step, state, behavior, rule and decision happens here.
import type { LabelTitles } from '../titles/titles';

/** A sample as the index takes it (the per-sample line's fields the viewer filters on). */
export interface SampleEntry {
  step: number;
  /** The file, relative to the folder or as picked. */
  file: string;
  /** 0-based: the line of a JSONL file, the row of a parquet file. */
  index: number;
  state: string;
  behavior: string;
  reward: number | null;
  /** The gate's deciding rule (its label or "rule N"); null without a gate. */
  rule?: string | null;
  /** The gate's decision in words (decisionText); null without a gate. */
  decision?: string | null;
}

/** The decisions a gate makes, in words (the viewer's filter offers these). */
export const DECISIONS = ['trained', 'kept out of the loss', 'dropped'] as const;
export type Decision = (typeof DECISIONS)[number];

/** A gate decision ({queued, loss_mask}) in words. */
export function decisionText(d: { queued: boolean; loss_mask?: number; lossMask?: number }): Decision {
  if (!d.queued) return 'dropped';
  return (d.loss_mask ?? d.lossMask) === 1 ? 'trained' : 'kept out of the loss';
}

export interface SampleFilter {
  step?: number | null;
  state?: string | null;
  behavior?: string | null;
  rule?: string | null;
  decision?: string | null;
}

/** The values each filter can take in this index. */
export interface SampleFacets {
  steps: number[];
  states: string[];
  behaviors: string[];
  rules: string[];
  decisions: string[];
  /** What a person reads for the discovered states and behaviors (browse.ts adds them; absent: the names). */
  titles?: LabelTitles;
}

/** Distinct strings, each stored once; a sample keeps its number. */
class Names {
  readonly list: string[] = [];
  readonly #ids = new Map<string, number>();
  id(s: string): number {
    let i = this.#ids.get(s);
    if (i === undefined) {
      i = this.list.length;
      this.list.push(s);
      this.#ids.set(s, i);
    }
    return i;
  }
  find(s: string): number | undefined {
    return this.#ids.get(s);
  }
}

const NONE = -1;

export class SampleIndex {
  readonly #files = new Names();
  readonly #states = new Names();
  readonly #behaviors = new Names();
  readonly #rules = new Names();
  readonly #decisions = new Names();
  readonly #step: number[] = [];
  readonly #file: number[] = [];
  readonly #index: number[] = [];
  readonly #state: number[] = [];
  readonly #behavior: number[] = [];
  readonly #reward: number[] = [];
  readonly #rule: number[] = [];
  readonly #decision: number[] = [];
  /** Samples per step (a step dropped again costs nothing when it has none). */
  readonly #perStep = new Map<number, number>();

  get size(): number {
    return this.#step.length;
  }

  add(e: SampleEntry): number {
    if (!Number.isInteger(e.step) || e.step < 0) throw new Error(`sample index: step must be a non-negative integer, got ${e.step}`);
    if (!Number.isInteger(e.index) || e.index < 0) throw new Error(`sample index: index must be a non-negative integer, got ${e.index}`);
    this.#step.push(e.step);
    this.#perStep.set(e.step, (this.#perStep.get(e.step) ?? 0) + 1);
    this.#file.push(this.#files.id(e.file));
    this.#index.push(e.index);
    this.#state.push(this.#states.id(e.state));
    this.#behavior.push(this.#behaviors.id(e.behavior));
    this.#reward.push(e.reward ?? NaN);
    this.#rule.push(e.rule == null ? NONE : this.#rules.id(e.rule));
    this.#decision.push(e.decision == null ? NONE : this.#decisions.id(e.decision));
    return this.size - 1;
  }

  /** Drop every sample (an import that reads its files again from the start). */
  clear(): void {
    for (const col of [this.#step, this.#file, this.#index, this.#state, this.#behavior, this.#reward, this.#rule, this.#decision]) col.length = 0;
    this.#perStep.clear();
  }

  /** Drop every sample of `step` (a followed step that was written again). */
  dropStep(step: number): void {
    if (!this.#perStep.delete(step)) return;
    const keep = this.#step.map((s, i) => (s === step ? -1 : i)).filter((i) => i >= 0);
    for (const col of [this.#step, this.#file, this.#index, this.#state, this.#behavior, this.#reward, this.#rule, this.#decision]) {
      const kept = keep.map((i) => col[i]);
      col.length = 0;
      for (const v of kept) col.push(v);
    }
  }

  get(i: number): SampleEntry {
    if (!(i >= 0 && i < this.size)) throw new Error(`sample index: no sample ${i} (the run has ${this.size})`);
    return {
      step: this.#step[i],
      file: this.#files.list[this.#file[i]],
      index: this.#index[i],
      state: this.#states.list[this.#state[i]],
      behavior: this.#behaviors.list[this.#behavior[i]],
      reward: Number.isNaN(this.#reward[i]) ? null : this.#reward[i],
      rule: this.#rule[i] === NONE ? null : this.#rules.list[this.#rule[i]],
      decision: this.#decision[i] === NONE ? null : this.#decisions.list[this.#decision[i]],
    };
  }

  /** Positions of the samples that pass every filter set, in the order they were added. */
  select(f: SampleFilter): number[] {
    const want = (names: Names, v: string | null | undefined): number | null | undefined => (v == null || v === '' ? null : names.find(v));
    const state = want(this.#states, f.state);
    const behavior = want(this.#behaviors, f.behavior);
    const rule = want(this.#rules, f.rule);
    const decision = want(this.#decisions, f.decision);
    if (state === undefined || behavior === undefined || rule === undefined || decision === undefined) return []; // a name this run does not have
    const step = f.step ?? null;
    const out: number[] = [];
    for (let i = 0; i < this.size; i++) {
      if (step !== null && this.#step[i] !== step) continue;
      if (state !== null && this.#state[i] !== state) continue;
      if (behavior !== null && this.#behavior[i] !== behavior) continue;
      if (rule !== null && this.#rule[i] !== rule) continue;
      if (decision !== null && this.#decision[i] !== decision) continue;
      out.push(i);
    }
    return out;
  }

  facets(): SampleFacets {
    const steps = [...this.#perStep.keys()].sort((a, b) => a - b);
    const used = (names: Names, col: number[]) => {
      const seen = new Set(col);
      return names.list.filter((_, i) => seen.has(i));
    };
    const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    return {
      steps,
      states: used(this.#states, this.#state).sort(byName),
      behaviors: used(this.#behaviors, this.#behavior).sort(byName),
      rules: used(this.#rules, this.#rule),
      decisions: DECISIONS.filter((d) => this.#decisions.find(d) !== undefined && this.#decision.includes(this.#decisions.find(d)!)),
    };
  }
}
