// The normalized sample every import format is read into, and the problems reported on the way.
// Formats differ in what they carry; what a format lacks stays null (never invented).

export type FormatId = 'openclaw' | 'verl' | 'trl' | 'jsonl';
export const FORMATS: readonly FormatId[] = ['openclaw', 'verl', 'trl', 'jsonl'];

/** What a file is in its run: an OpenClaw record or PRM file, a verl step file, a TRL completions file, generic JSONL. */
export type FileKind = 'openclaw-record' | 'openclaw-prm' | 'verl' | 'jsonl' | 'trl';

export interface ImportedSample {
  /** Source file and 1-based line (parquet: 1-based row). */
  file: string;
  line: number;
  step: number;
  /** Samples of one prompt (GRPO group, OpenClaw session); null when the log has none. */
  group: string | null;
  prompt: string;
  response: string;
  /** Scalar reward (verl `score`, TRL reward sum, OpenClaw PRM `score`); null when not judged. */
  reward: number | null;
  /** Tool names in call order (OpenClaw `tool_calls`, TRL/JSONL `tool_calls`). */
  toolCalls: string[];
  /** Response tokens when the log supplies them (generic JSONL `tokens`). */
  tokens: string[] | null;
  /** Per-token log-probs of the sampled tokens under the rollout policy (`rollout_logprobs`). */
  logprobs: number[] | null;
  /** 0 = kept out of the loss, 1 = trained; null when the log does not say. */
  lossMask: number | null;
  /** Judge votes (OpenClaw PRM); empty when the log has none. */
  votes: number[];
  /** Behavior / state labels the log already carries (generic JSONL); rules may use or override them. */
  behavior: string | null;
  state: string | null;
  /** Every top-level scalar field of the record (and joined PRM fields), for field states and rule expressions. */
  fields: Record<string, string | number | boolean | null>;
}

export interface ImportIssue {
  file: string;
  /** 1-based line (row for parquet); 0 = the file as a whole. */
  line: number;
  message: string;
}

/** Bytes of a file: streamed for line formats, sliced for parquet (random access). */
export interface ImportSource {
  name: string;
  size: number;
  /** The bytes in order. A chunk may be overwritten once the next one is asked for (the CLI reads into one buffer): use it before. */
  stream(): AsyncIterable<Uint8Array>;
  slice(start: number, end: number): Promise<ArrayBuffer>;
}

export interface ImportProgress {
  file: string;
  bytesDone: number;
  bytesTotal: number;
  samples: number;
  issues: number;
}

/** Keep only the scalar fields of a record (objects/arrays are not addressable by a field rule). */
export function scalarFields(rec: Record<string, unknown>, prefix = ''): Record<string, string | number | boolean | null> {
  const out: Record<string, string | number | boolean | null> = {};
  for (const [k, v] of Object.entries(rec)) {
    if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[prefix + k] = v;
    else if (typeof v === 'bigint') out[prefix + k] = Number(v);
  }
  return out;
}
