// The follower's frames file (--out) and its checkpoint: one frame line per step, as `npm run
// import --out` writes them; a replaced step's line is rewritten in place (temp file + rename);
// `<out>.files.json` keeps the step files read (size, mtime) so a resumed follow sees a file
// rewritten while it was down; `<out>.discover.json` keeps the discovered clusters as they were when
// the last frame was written, so a resumed follow gives the same labels. A line cut by a kill is dropped on resume.
// Whole-file writes go through a temp file created exclusively under a random name (../temp-file.ts).
import { existsSync, readFileSync, appendFileSync } from 'node:fs';
import { frameLine, frameLineStep, frameOfLine, type DiscoverySnapshot, type FileStamp } from '../../core/import/index';
import type { MetricsFrame } from '../../core/metrics';
import { replaceText as writeWhole } from '../temp-file';

export class FramesFile {
  /** Steps written, in file order. */
  readonly steps: number[] = [];
  readonly files: Record<string, FileStamp> = {};
  /** The discovered clusters saved with the last frame written; null when none were. */
  readonly discovered: DiscoverySnapshot | null = null;

  constructor(private readonly path: string | null) {
    if (!path || !existsSync(path)) return;
    const text = readFileSync(path, 'utf8');
    const lines = text.split('\n'); // the last piece is '' after a newline, else a line cut by a kill
    const whole = lines.slice(0, -1);
    const kept = whole.filter((l) => frameLineStep(l) !== null);
    for (const l of kept) this.steps.push(frameLineStep(l)!);
    if (kept.length !== whole.length || lines.at(-1) !== '') writeWhole(path, kept.map((l) => `${l}\n`).join(''));
    const side = `${path}.files.json`;
    if (existsSync(side)) Object.assign(this.files, JSON.parse(readFileSync(side, 'utf8')) as Record<string, FileStamp>);
    const found = `${path}.discover.json`;
    if (existsSync(found) && this.steps.length) this.discovered = JSON.parse(readFileSync(found, 'utf8')) as DiscoverySnapshot;
  }

  /** The discovered clusters as of the frames written (temp file + rename: a kill leaves the old or the new). */
  saveDiscovered(snap: DiscoverySnapshot): void {
    if (!this.path) return;
    writeWhole(`${this.path}.discover.json`, JSON.stringify(snap));
  }

  write(f: MetricsFrame, replaced: boolean): void {
    if (!this.path) return;
    const line = frameLine(f);
    if (!replaced || !this.steps.includes(f.step)) {
      appendFileSync(this.path, `${line}\n`);
      this.steps.push(f.step);
      return;
    }
    const lines = readFileSync(this.path, 'utf8').split('\n').filter(Boolean).map((l) => (frameLineStep(l) === f.step ? line : l));
    writeWhole(this.path, lines.map((l) => `${l}\n`).join(''));
  }

  /** The frames written so far, in file order (what a resumed `--port` serves first). */
  frames(): MetricsFrame[] {
    if (!this.path || !existsSync(this.path)) return [];
    return readFileSync(this.path, 'utf8').split('\n').flatMap((l) => frameOfLine(l) ?? []);
  }

  fileRead(path: string, stamp: FileStamp): void {
    this.files[path] = stamp;
    if (this.path) writeWhole(`${this.path}.files.json`, JSON.stringify(this.files)); // a kill here must not cut it (a restart reads it)
  }
}
