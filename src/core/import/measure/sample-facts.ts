// What measuring reads of a sample besides its state and behavior (measure.ts `count`), made when
// the sample is read. With discovery a step's samples wait for their labels until the step is
// complete; they wait as these facts (no prompt, response or record fields: the text of a step of
// long reasoning traces is hundreds of MB), their capped tokens as ids into the step's TokenTable.
// The rollout viewer reads a sample's text back from its file by line (../browse/).
import { fitFacts, type FitFacts } from './fit-counts';
import { gateFacts, type GateFacts } from './gate';
import { turnOf } from '../samples/record';
import type { TurnKind } from '../discover/chat';
import type { ImportedSample } from '../types';

export interface SampleFacts {
  file: string;
  line: number;
  step: number;
  group: string | null;
  reward: number | null;
  /** The log's per-token log-probs (summed in order when the step is measured). */
  logprobs: readonly number[] | null;
  fit: FitFacts;
  /** With a gate: what its replay reads. */
  gate: GateFacts | null;
  /** When sample lines are written: a chat prompt's turn kind (null: not a chat, or no lines written). */
  turn: TurnKind | null;
  /** The sample itself, only while someone listens for each labelled sample (measure.ts `onLabeled`). */
  sample: ImportedSample | null;
}

export function sampleFacts(s: ImportedSample, gate: boolean, keepSample: boolean, rows: boolean): SampleFacts {
  return { file: s.file, line: s.line, step: s.step, group: s.group, reward: s.reward, logprobs: s.logprobs, fit: fitFacts(s), gate: gate ? gateFacts(s) : null, turn: rows ? turnOf(s.prompt) : null, sample: keepSample ? s : null };
}

/** A step's tokens: each distinct token string held once, a sample's tokens as 4-byte ids. */
export class TokenTable {
  private ids = new Map<string, number>();
  private names: string[] = [];

  idsOf(tokens: readonly string[]): Int32Array {
    const out = new Int32Array(tokens.length);
    tokens.forEach((t, k) => {
      let id = this.ids.get(t);
      if (id === undefined) (this.ids.set(t, (id = this.names.length)), this.names.push(t));
      out[k] = id;
    });
    return out;
  }

  tokensOf(ids: Int32Array): string[] {
    return Array.from(ids, (id) => this.names[id]);
  }

  /** Distinct tokens held. */
  get size(): number {
    return this.names.length;
  }
}
