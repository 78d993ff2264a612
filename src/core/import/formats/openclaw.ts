// OpenClaw-RL record files (`OPENCLAW_RECORD_FILE`, one line per main turn, written once the next
// state is known): {session_id, turn, timestamp, messages, prompt_text, response_text, tool_calls,
// next_state}; and the PRM record file (`<record>_prm.jsonl`) joined on (session_id, turn):
// Binary RL {score, votes, representative_eval?}, OPD {accepted, hint, hint_len?, votes: [{score,
// hint, ...}]}. OpenClaw is fully asynchronous and writes no trainer step. Its server clears both
// files when training on a batch starts (openclaw-rl/openclaw_rollout.py `pause_submission` →
// openclaw_api_server.py `purge_record_files`), so a run's records are kept as one snapshot of the
// files per step, in a directory each. A record's step is its `step` field when present; else, with
// several record files, its file's snapshot step (`snapshotStep`: the number of the nearest
// directory that has one, e.g. `step_0012/record.jsonl` → 12; else the file's place, 1, 2, …); a
// single file without steps is cut every rollout batch (16) of records, which can split sessions.
import { RecordFieldError, contentText, emptySample, reqKey, toolNames, type Rec } from './common';
import { fieldChecked, type RecordReader } from '../read/records';
import type { PlannedFile, SampleSink } from '../read/tally';
import { scalarFields, type ImportedSample } from '../types';

export const OPENCLAW_BATCH = 16;

export function isOpenClawRecord(r: Rec): boolean {
  return 'session_id' in r && 'turn' in r && ('response_text' in r || 'prompt_text' in r);
}

export function isOpenClawPrm(r: Rec): boolean {
  return 'session_id' in r && 'turn' in r && !('response_text' in r) && ('score' in r || 'accepted' in r || 'votes' in r);
}

export function joinKey(session: string, turn: string): string {
  return `${session}\u0000${turn}`;
}

/** What is kept of a PRM line (small: the hint text and judge outputs are not held). */
export interface PrmEntry {
  score: number | null;
  accepted: boolean | null;
  hintLen: number | null;
  /** Words of the accepted hint (the lab's hint length unit); null when the hint text is absent. */
  hintWords: number | null;
  votes: number[];
  line: number;
  used: boolean;
}

function voteValue(v: unknown, i: number): number | null {
  if (v === null || v === 'fail') return null;
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (v && typeof v === 'object') return voteValue((v as Rec).score, i);
  throw new RecordFieldError(`field \`votes[${i}]\`: expected a number, null or {score}`);
}

export function prmEntry(r: Rec, line: number): { key: string; entry: PrmEntry } {
  const key = joinKey(reqKey(r, 'session_id'), reqKey(r, 'turn'));
  let score: number | null = null;
  if (r.score !== undefined && r.score !== null) {
    if (typeof r.score !== 'number' || !Number.isFinite(r.score)) throw new RecordFieldError('field `score`: expected a finite number');
    score = r.score;
  }
  let accepted: boolean | null = null;
  if (r.accepted !== undefined) {
    if (typeof r.accepted !== 'boolean') throw new RecordFieldError('field `accepted`: expected true or false');
    accepted = r.accepted;
  }
  if (score === null && accepted === null) throw new RecordFieldError('PRM record has neither `score` (Binary RL) nor `accepted` (OPD)');
  let hintLen: number | null = null;
  if (typeof r.hint_len === 'number') hintLen = r.hint_len;
  else if (typeof r.hint === 'string' && accepted) hintLen = r.hint.length;
  const votes = r.votes === undefined || r.votes === null ? [] : Array.isArray(r.votes) ? r.votes.map(voteValue).filter((v): v is number => v !== null) : (() => { throw new RecordFieldError('field `votes`: expected a list'); })();
  const hintWords = accepted && typeof r.hint === 'string' && r.hint.trim() ? r.hint.trim().split(/\s+/).length : null;
  return { key, entry: { score, accepted, hintLen, hintWords, votes, line, used: false } };
}

/** Where a record without a `step` field belongs: its file's snapshot step, or its index / batch. */
export type RecordStep = { fileStep: number } | { index: number; batch: number };

/** The number in the nearest directory of a path that has one (`run/step_0012/x.jsonl` → 12), else null. */
export function snapshotStep(path: string): number | null {
  const dirs = path.split(/[\\/]/).slice(0, -1);
  for (let i = dirs.length - 1; i >= 0; i--) {
    const m = /(\d+)(?!.*\d)/.exec(dirs[i]);
    if (m) return Number(m[1]);
  }
  return null;
}

/**
 * One conversation record joined with its PRM entry (or none: a turn without a next state is never
 * judged). Loss mask follows OpenClaw: Binary RL trains a turn with a next state and score ≠ 0;
 * OPD trains accepted turns (the others are dropped, never queued).
 */
export function openclawSample(r: Rec, prm: ReadonlyMap<string, PrmEntry>, at: RecordStep, file: string, line: number): ImportedSample {
  const s = emptySample(file, line);
  const session = reqKey(r, 'session_id');
  const turn = reqKey(r, 'turn');
  if (typeof r.response_text !== 'string') throw new RecordFieldError(r.response_text === undefined ? 'missing field `response_text`' : 'field `response_text`: expected a string');
  s.response = r.response_text;
  if (typeof r.prompt_text === 'string') s.prompt = r.prompt_text;
  else if (Array.isArray(r.messages)) s.prompt = r.messages.map((m) => (m && typeof m === 'object' ? contentText((m as Rec).content) : '')).join('\n');
  else throw new RecordFieldError('missing field `prompt_text` (and no `messages`)');
  s.toolCalls = toolNames(r.tool_calls);
  if (r.step !== undefined) {
    if (typeof r.step !== 'number' || !Number.isInteger(r.step) || r.step < 0) throw new RecordFieldError('field `step`: expected a non-negative integer');
    s.step = r.step;
  } else s.step = 'fileStep' in at ? at.fileStep : Math.floor(at.index / at.batch);
  s.group = session;
  const hasNext = r.next_state !== undefined && r.next_state !== null;
  const p = prm.get(joinKey(session, turn));
  if (p) p.used = true;
  const fields = scalarFields(r);
  fields.has_next_state = hasNext;
  if (p) {
    s.reward = p.score;
    if (p.accepted !== null) s.lossMask = p.accepted ? 1 : 0;
    else s.lossMask = hasNext && p.score !== null && p.score !== 0 ? 1 : 0;
    fields.prm_score = p.score;
    fields.prm_accepted = p.accepted;
    fields.prm_hint_len = p.hintLen;
    fields.prm_hint_words = p.hintWords;
    s.votes = p.votes;
    fields.prm_votes_pos = p.votes.filter((v) => v > 0).length;
    fields.prm_votes_neg = p.votes.filter((v) => v < 0).length;
    fields.prm_votes = p.votes.length;
    // judging order: OpenClaw writes a PRM line when the judge finishes, and submits turns in that order
    fields.prm_line = p.line;
  } else {
    s.lossMask = 0;
  }
  s.fields = fields;
  return s;
}

/** How a follower reads (follow/live-files.ts, follow/snapshot-files.ts); the one-shot import passes none. */
export interface OpenClawFollow {
  /** Records wait for their PRM line (the live files: a turn is judged after its record is written). */
  awaitPrm: boolean;
  /** The step of a record without `step`: one for every file (a live segment) or per file (a snapshot's); undefined: its index / batch. */
  recordStep?: number | ((file: string) => number | undefined);
  /** Keep the (session_id, turn) of each record left unjudged, so a PRM line read later can be told (`lateJoins`). */
  trackUnjudged?: boolean;
}

const plural = (n: number, one: string, many: string) => (n > 1 ? many : one);
const keyText = (key: string) => key.replace('\u0000', ', ');

/**
 * The OpenClaw reader: PRM lines are kept (small entries, keyed by (session_id, turn)) and each
 * conversation record is joined with its entry as it is read; the PRM files are read first. What
 * cannot be joined is reported: a judged turn without a PRM line, a PRM line without its turn, a
 * duplicate PRM line. Following a live run (`awaitPrm`), a record's PRM line comes after it (the
 * judge scores a turn once its next state is known): records wait, in file order, until their PRM
 * line is read or their file ends (a purge), so samples leave in the same order as in a one-shot
 * import of the same lines.
 */
export class OpenClawReader implements RecordReader {
  private readonly prm = new Map<string, PrmEntry>();
  private readonly prmFiles: PlannedFile[];
  private readonly follow: OpenClawFollow;
  /** The step of each record file when there are several (per-step snapshots). */
  private readonly fileSteps: Map<string, number> | null = null;
  private index = 0;
  private unjudged: number[] = [];
  /** Records waiting for their PRM line (awaitPrm), in file order; `head` is the next to leave. */
  private pending: { f: PlannedFile; r: Rec; line: number }[] = [];
  private head = 0;
  /** trackUnjudged: the records left unjudged, (session_id, turn) → their file. */
  private unjudgedKeys = new Map<string, string>();

  constructor(
    plan: readonly PlannedFile[],
    private readonly sink: SampleSink,
    private readonly batch = OPENCLAW_BATCH,
    follow: OpenClawFollow = { awaitPrm: false },
  ) {
    this.follow = follow;
    this.prmFiles = plan.filter((x) => x.kind === 'openclaw-prm');
    if (follow.awaitPrm) return; // a follower's files come as they appear (addFile); each segment is one step
    if (!this.prmFiles.length) for (const x of plan) sink.issue(x.source.name, 0, 'no PRM record file given: turns have no score (pass the matching *_prm.jsonl too)', x.sum);
    // several record files are a run's per-step snapshots: each file is one step
    const records = plan.filter((x) => x.kind === 'openclaw-record');
    if (records.length < 2) return;
    const snapshots = records.map((x) => snapshotStep(x.source.name));
    const byName = snapshots.every((n) => n !== null);
    this.fileSteps = new Map(records.map((x, i) => [x.source.name, byName ? snapshots[i]! : i + 1]));
    if (!byName) for (const x of records) sink.issue(x.source.name, 0, `records without \`step\` take the file's place as their step (${this.fileSteps.get(x.source.name)}): no directory name of every record file has a number`, x.sum);
  }

  addFile(f: PlannedFile): void {
    if (f.kind !== 'openclaw-prm') return;
    const i = this.prmFiles.findIndex((x) => x.source.name === f.source.name);
    if (i >= 0) this.prmFiles[i] = f;
    else this.prmFiles.push(f);
  }

  /** Record files with a turn left unjudged whose PRM line has been read since (each said once). */
  lateJoins(): Set<string> {
    const files = new Set<string>();
    for (const [key, file] of this.unjudgedKeys)
      if (this.prm.has(key)) {
        files.add(file);
        this.unjudgedKeys.delete(key);
      }
    return files;
  }

  /** PRM lines whose conversation record has not been read (after a purge: records lost unread). */
  get unmatchedPrm(): number {
    let n = 0;
    for (const e of this.prm.values()) if (!e.used) n++;
    return n;
  }

  order(plan: readonly PlannedFile[]): PlannedFile[] {
    return [...plan.filter((x) => x.kind === 'openclaw-prm'), ...plan.filter((x) => x.kind !== 'openclaw-prm')];
  }

  record(f: PlannedFile, r: Rec, line: number): void {
    if (f.kind === 'openclaw-prm') fieldChecked(this.sink, f.source.name, line, f.sum, () => this.prmLine(f, r, line));
    else if (!this.follow.awaitPrm) return this.recordLine(f, r, line);
    else this.pending.push({ f, r, line });
    this.drain(false);
  }

  /** Records leave in order while the next one is joinable (its PRM line read, or it is never judged); `all`: every one. */
  private drain(all: boolean): void {
    while (this.head < this.pending.length && (all || this.joinable(this.pending[this.head].r))) {
      const x = this.pending[this.head++];
      this.recordLine(x.f, x.r, x.line);
    }
    if (this.head === this.pending.length) this.pending = [];
    if (!this.pending.length) this.head = 0;
  }

  private joinable(r: Rec): boolean {
    if (r.next_state === undefined || r.next_state === null) return true;
    try {
      return this.prm.has(joinKey(reqKey(r, 'session_id'), reqKey(r, 'turn')));
    } catch {
      return true; // reported when the record is read
    }
  }

  private recordLine(f: PlannedFile, r: Rec, line: number): void {
    const name = f.source.name;
    fieldChecked(this.sink, name, line, f.sum, () => {
      const rs = this.follow.recordStep;
      const fileStep = typeof rs === 'function' ? rs(name) : rs ?? this.fileSteps?.get(name);
      const at: RecordStep = fileStep !== undefined ? { fileStep } : { index: this.index++, batch: this.batch };
      const s = openclawSample(r, this.prm, at, name, line);
      if (this.prmFiles.length && s.fields.has_next_state === true && !Object.hasOwn(s.fields, 'prm_score')) {
        this.unjudged.push(line);
        if (this.follow.trackUnjudged) this.unjudgedKeys.set(joinKey(s.group!, reqKey(r, 'turn')), name);
      }
      this.sink.sample(s, f.sum);
    });
  }

  private prmLine(f: PlannedFile, r: Rec, line: number): void {
    const { key, entry } = prmEntry(r, line);
    const first = this.prm.get(key);
    if (first) this.sink.issue(f.source.name, line, `duplicate PRM record for (session_id, turn) = (${keyText(key)}); the first (line ${first.line}) is kept`, f.sum);
    else this.prm.set(key, entry);
    f.sum.samples++;
  }

  endFile(f: PlannedFile): void {
    if (f.kind === 'openclaw-record') this.drain(true);
    const u = this.unjudged;
    this.unjudged = [];
    if (!u.length) return;
    const lines = `${u.slice(0, 5).join(', ')}${u.length > 5 ? ', …' : ''}`;
    this.sink.issue(f.source.name, u[0], `${u.length} record${plural(u.length, ' has', 's have')} a next_state but no PRM line (line${plural(u.length, '', 's')} ${lines}): left unjudged, loss mask 0`, f.sum);
  }

  finish(): void {
    for (const x of this.prmFiles)
      for (const [key, e] of this.prm) if (!e.used) this.sink.issue(x.source.name, e.line, `PRM record (session_id, turn) = (${keyText(key)}) has no conversation record`, x.sum);
  }
}
