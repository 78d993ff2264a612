// Writers that write a step's file whole (verl `trainer.rollout_data_dir`: `{step}.jsonl`, TRL
// `log_completions`: `completions/completions_{step:05d}.parquet`). A file is read once it is whole:
// a TRL file when it ends with the parquet footer (`PAR1`) and opens; a verl file when it ends with
// a newline and either a later step's file exists (the trainer writes step N + 1 after closing N)
// or it has not changed for `settleMs` (verl writes the file with one write, which a reader can
// still see half done). A file that changes after it was read was rewritten (a resumed trainer
// opens the step's file with "w"): it is read again and its frame replaced.
import { readTrlFile } from '../formats/trl';
import { verlSample } from '../formats/verl';
import { LineFeed, sampleReader } from '../read/records';
import type { PlannedFile } from '../read/tally';
import { errorText } from '../../unknown';
import type { FollowCore } from './follow-core';
import { followSource, type FollowEntry } from './fs';

interface StepFile {
  path: string;
  step: number;
  size: number;
  mtimeMs: number;
  changedAt: number;
  /** Read at this size and time; null while not (or no longer) whole. */
  read: { size: number; mtimeMs: number } | null;
  /** Its frame was written and the file changed since. */
  rewritten: boolean;
}

const PAR1 = [0x50, 0x41, 0x52, 0x31];

export class StepFiles {
  private files = new Map<string, StepFile>();

  constructor(private readonly core: FollowCore) {}

  async poll(): Promise<boolean> {
    const entries = await this.core.fs.list();
    const changed = this.track(entries);
    const byStep = [...this.files.values()].sort((a, b) => a.step - b.step);
    const last = byStep.at(-1)?.step ?? -1;
    let read = false;
    for (const f of byStep) if (!f.read && (await this.whole(f, f.step < last))) read = (await this.readStep(f)) || read;
    return changed || read;
  }

  /** Bytes read of each step file (one not whole yet is not read: 0). */
  readSoFar(): Map<string, number> {
    return new Map([...this.files.values()].map((f) => [f.path, f.read?.size ?? 0]));
  }

  /** Sizes and times as listed now; true when a file appeared, changed or went away. */
  private track(entries: readonly FollowEntry[]): boolean {
    const now = this.core.now();
    const seen = new Set<string>();
    let changed = false;
    for (const { entry: e, step } of this.core.runFiles(entries, 'step-files')) {
      if (step === null) {
        const name = this.core.opts.format === 'trl' ? 'completions_{step}.parquet' : '{step}.jsonl';
        this.core.noticeOnce(`name:${e.path}`, `${e.path}: not followed: a follow tells a step file's step by its name (${name}), and this name has none (npm run import reads it, by the steps in its records)`);
        continue;
      }
      seen.add(e.path);
      if (e.error) {
        this.core.noticeOnce(`stat:${e.path}`, `${e.path}: cannot be read (${e.error}); trying again`);
        continue;
      }
      const f = this.files.get(e.path) ?? { path: e.path, step, size: -1, mtimeMs: -1, changedAt: now, read: this.core.opts.readFiles?.[e.path] ?? null, rewritten: false };
      this.files.set(e.path, f);
      if (f.size === e.size && f.mtimeMs === e.mtimeMs) continue;
      changed = true;
      f.size = e.size;
      f.mtimeMs = e.mtimeMs;
      f.changedAt = now;
      if (f.read && (f.read.size !== e.size || f.read.mtimeMs !== e.mtimeMs)) {
        f.read = null;
        f.rewritten = true;
      }
    }
    for (const [path, f] of this.files) {
      if (seen.has(path)) continue;
      changed = true;
      this.files.delete(path);
      this.core.notice(f.read ? `${path} was deleted; step ${f.step}'s frame stays as it was read` : `${path} was deleted before it was whole; step ${f.step} is not measured`);
    }
    return changed;
  }

  private async tail(f: StepFile, n: number): Promise<Uint8Array | null> {
    try {
      const b = await this.core.fs.read(f.path, Math.max(0, f.size - n), f.size);
      this.core.forget(`read:${f.path}`);
      return b;
    } catch (e) {
      this.core.noticeOnce(`read:${f.path}`, `${f.path}: cannot be read (${errorText(e)}); trying again`);
      return null;
    }
  }

  private async whole(f: StepFile, laterExists: boolean): Promise<boolean> {
    if (f.size <= 0) return false;
    const settled = this.core.now() - f.changedAt >= (this.core.opts.settleMs ?? 500);
    if (this.core.opts.format === 'trl') {
      const t = await this.tail(f, 4);
      return !!t && t.length === 4 && PAR1.every((x, i) => t[i] === x) && (settled || laterExists || (await this.opens(f)));
    }
    const t = await this.tail(f, 1);
    return !!t && t[0] === 0x0a && (laterExists || settled);
  }

  private async opens(f: StepFile): Promise<boolean> {
    const open = this.core.opts.parquet;
    if (!open) return true;
    const src = followSource(this.core.fs, f.path, f.size);
    try {
      await open({ byteLength: f.size, slice: (a, b) => src.slice(a, b ?? f.size) });
      return true;
    } catch {
      return false;
    }
  }

  /** Read a whole step file and write its steps; false when it was already written before this follow. */
  private async readStep(f: StepFile): Promise<boolean> {
    f.read = { size: f.size, mtimeMs: f.mtimeMs };
    if (!f.rewritten && this.core.closed.has(f.step)) return false;
    if (f.rewritten) this.core.reopen(f.step);
    const core = this.core;
    core.touched.clear();
    const sum = core.summary(f.path, core.opts.format === 'trl' ? 'trl' : 'verl');
    const src = followSource(core.fs, f.path, f.size);
    try {
      if (core.opts.format === 'trl') await readTrlFile(src, core.opts.parquet, sum, core);
      else {
        const file: PlannedFile = { source: src, kind: 'verl', sum };
        const feed = new LineFeed(file, sampleReader(core, verlSample), core);
        for await (const c of src.stream()) feed.push(c);
        feed.end();
      }
    } catch (e) {
      f.read = null;
      for (const step of core.touched) core.measure.discardStep(step);
      core.noticeOnce(`read:${f.path}`, `${f.path}: cannot be read (${errorText(e)}); trying again`);
      return false;
    }
    if (f.rewritten) core.notice(`step ${f.step} was rewritten (${f.path} was written again, as a resumed trainer does): its frame is replaced`);
    for (const step of [...core.touched].sort((a, b) => a - b)) core.closeStep(step, f.rewritten);
    // after the frames: a follow killed in between reads the file again rather than losing its step
    core.events.fileRead?.(f.path, { size: f.size, mtimeMs: f.mtimeMs });
    f.rewritten = false;
    return true;
  }

  /** The end: files not yet whole are read as they are (a cut last line is reported). */
  async finish(): Promise<void> {
    for (const f of [...this.files.values()].sort((a, b) => a.step - b.step)) if (!f.read && f.size > 0) await this.readStep(f);
  }
}
