// A run followed as it trains: the import's own readers fed the bytes its writer has written so
// far, each step's frame emitted once the writer says the step is complete (step-files.ts: a verl
// or TRL step file is whole; live-files.ts: an OpenClaw purge, a generic JSONL log moving on), in
// bounded memory (only open steps are held). `finish` writes the steps still open as the one-shot
// import would, so the frames equal `measureLogs` of the finished files. What goes wrong on the
// way (a half line, a purge, a rewritten step, a deleted or unreadable file) is said in a notice.
import { FollowCore, type FollowEvents, type FollowOptions } from './follow-core';
import type { FollowEntry, FollowFs } from './fs';
import { LiveFiles } from './live-files';
import { SnapshotFiles } from './snapshot-files';
import { folderLayout } from '../read/run-folder';
import { StepFiles } from './step-files';

export type { FileStamp, FollowEvents, FollowOptions } from './follow-core';

/** What a follow has read of each file it follows, beside the file's size as last listed (`npm run watch --progress`). */
export interface FollowProgress {
  files: { path: string; read: number; size: number }[];
  /** Every byte listed has been read (a writer that waits for it may purge or move on now). */
  caughtUp: boolean;
}

/** Follows a folder: call `poll` as often as the files may change, `finish` at the end. */
export class RunFollower {
  private readonly core: FollowCore;
  /** How the writer writes; OpenClaw's is told by the first record files (null until then). */
  private mode: StepFiles | LiveFiles | SnapshotFiles | null = null;
  /** The sizes of the folder's files as last listed. */
  private listed = new Map<string, number>();

  constructor(fs: FollowFs, opts: FollowOptions, events: FollowEvents) {
    const list = async (): Promise<FollowEntry[]> => {
      const entries = await fs.list();
      this.listed = new Map(entries.map((e) => [e.path, e.size]));
      return entries;
    };
    this.core = new FollowCore({ list, read: (path, start, end) => fs.read(path, start, end) }, opts, events);
    if (opts.format === 'verl' || opts.format === 'trl') this.mode = new StepFiles(this.core);
    else if (opts.format === 'jsonl') this.mode = new LiveFiles(this.core);
  }

  /** OpenClaw: per-step snapshot directories when a record file lies in a numbered folder, else the live files. */
  private async openclawMode(): Promise<StepFiles | LiveFiles | SnapshotFiles | null> {
    const layout = folderLayout('openclaw', (await this.core.fs.list()).map((e) => e.path));
    if (!layout) return null;
    if (layout === 'snapshots') this.core.notice('per-step snapshot directories: a step is written once the next snapshot is whole');
    return layout === 'snapshots' ? new SnapshotFiles(this.core) : new LiveFiles(this.core);
  }

  /** Read what changed; true when any byte or file changed. */
  async poll(): Promise<boolean> {
    this.mode ??= await this.openclawMode();
    return (await this.mode?.poll()) ?? false;
  }

  /** The end of the follow (idle, Ctrl-C): what is still open is read and written as a one-shot import would. */
  async finish(): Promise<void> {
    await this.poll();
    await this.mode?.finish();
  }

  /** What was read of each file followed (in path order), after the last poll. */
  progress(): FollowProgress {
    const read = this.mode?.readSoFar() ?? new Map<string, number>();
    const files = [...read].filter(([path]) => this.listed.has(path)).map(([path, n]) => ({ path, read: n, size: this.listed.get(path)! }));
    files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { files, caughtUp: files.every((f) => f.read === f.size) };
  }

  /** Steps held open now (the bound on memory). */
  get openSteps(): number {
    return this.core.measure.openStepCount;
  }
}
