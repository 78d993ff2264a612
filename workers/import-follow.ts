// The import worker's folder follow: the core's RunFollower over a FileSystemDirectoryHandle
// (src/io/folder-handle.ts), polled every `pollMs` until `stop`, then finished as the CLI's Ctrl-C
// finishes it (the steps still open written as the one-shot import would). Each event is awaited,
// so the page has every frame and notice before the follow's call returns.
import { RunFollower, type DiscoverySnapshot, type FollowEvents, type FollowOptions } from '../src/core/import/index';
import { handleFolder } from '../src/io/folder-handle';

/** What the page sees of a follow: the core's events, each delivered before the next (a Comlink proxy's calls return promises). */
export interface FollowSink {
  frame(...a: Parameters<FollowEvents['frame']>): void | Promise<void>;
  notice(text: string): void | Promise<void>;
}

export class FolderFollow {
  /** The follow's discovered clusters as of its last frame (their titles go to the rollout viewer); null: none yet. */
  discovered: DiscoverySnapshot | null = null;
  private stopped = false;
  private wake: (() => void) | null = null;

  constructor(
    private readonly dir: FileSystemDirectoryHandle,
    private readonly opts: FollowOptions,
    private readonly pollMs: number,
  ) {}

  async run(sink: FollowSink): Promise<void> {
    // events queue in order and are awaited between polls (a follower's callbacks are synchronous)
    const queue: (() => void | Promise<void>)[] = [];
    const follower = new RunFollower(handleFolder(this.dir), this.opts, {
      frame: (f, replaced) => void queue.push(() => sink.frame(f, replaced)),
      notice: (t) => void queue.push(() => sink.notice(t)),
      discovered: (snap) => void (this.discovered = snap),
    });
    const flush = async () => {
      while (queue.length) await queue.shift()!();
    };
    try {
      while (!this.stopped) {
        await follower.poll();
        await flush();
        if (this.stopped) break;
        await new Promise<void>((r) => {
          this.wake = r;
          setTimeout(r, this.pollMs);
        });
        this.wake = null;
      }
      await follower.finish();
    } finally {
      await flush(); // what was said before a failure reaches the page too
    }
  }

  stop(): void {
    this.stopped = true;
    this.wake?.();
  }
}
