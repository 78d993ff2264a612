// --samples-out FILE of `npm run import` and `npm run watch`: one JSON line per sample (the core's
// line, src/core/import/samples/record.ts), a step's lines appended once the step is measured, before
// its frame. The follower's checkpoint is --out: on a restart the lines of steps that --out does not
// hold (and a line cut by a kill) are dropped, as those steps are measured again; a step measured
// again (a rewritten verl step, a late OpenClaw PRM line) has its lines replaced, the file rewritten
// through a temp file (./temp-file.ts). Docs: docs/import.md.
import { appendFileSync, closeSync, existsSync, openSync, readSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, isAbsolute, normalize, sep } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { sampleLine, sampleLineStep, type SampleRecord, type SamplesOut } from '../core/import/index';
import { replaceFile } from './temp-file';

export const SAMPLES_OPTIONS = { 'samples-out': { type: 'string' } } as const;
export const SAMPLES_USAGE = '[--samples-out samples.jsonl]';

const CHUNK = 1 << 20;

/** Keep the whole lines of `path` that `keep` accepts (streamed, never the whole file in memory); a last line without its newline is dropped. Returns the lines dropped. */
function filterLines(path: string, keep: (line: string) => boolean): number {
  let dropped = 0;
  const inFd = openSync(path, 'r');
  try {
    replaceFile(path, (outFd) => {
      const buf = Buffer.allocUnsafe(CHUNK);
      const text = new StringDecoder('utf8'); // a character cut by the chunk's end waits for the next chunk
      let rest = '';
      for (let n; (n = readSync(inFd, buf, 0, CHUNK, null)) > 0; ) {
        const parts = (rest + text.write(buf.subarray(0, n))).split('\n');
        rest = parts.pop()!;
        let out = '';
        for (const l of parts) {
          if (!l) continue;
          if (keep(l)) out += `${l}\n`;
          else dropped++;
        }
        if (out) writeSync(outFd, out);
      }
      if (rest) dropped++;
    });
  } finally {
    closeSync(inFd);
  }
  return dropped;
}

/** The folder the files' names are made relative to: the folder given, else the common folder of the paths given ('' when they mix absolute and relative paths). */
export function samplesRoot(paths: readonly string[]): string {
  const dirs = paths.map((p) => (existsSync(p) && statSync(p).isDirectory() ? normalize(p) : dirname(normalize(p))).replace(/[\\/]+$/, ''));
  if (!dirs.length || !(dirs.every(isAbsolute) || !dirs.some(isAbsolute))) return '';
  const parts = dirs.map((d) => d.split(sep));
  let k = 0;
  while (parts.every((x) => k < x.length && x[k] === parts[0][k])) k++;
  const common = parts[0].slice(0, k).join(sep);
  return common === '.' ? '' : common || (isAbsolute(dirs[0]) ? sep : '');
}

/** The samples file: lines appended per step, a step's lines replaced when it is measured again. */
export class SamplesFile implements SamplesOut {
  private readonly steps = new Set<number>();
  /** Lines dropped on opening (steps --out does not hold, a cut line). */
  readonly dropped: number = 0;

  /** `written`: the steps --out holds (a resumed follow); the file's other lines are dropped. An import passes none: the file starts empty. */
  constructor(
    private readonly path: string,
    readonly root: string,
    written: Iterable<number> = [],
  ) {
    const keep = new Set(written);
    if (keep.size && existsSync(path)) {
      this.dropped = filterLines(path, (l) => {
        const step = sampleLineStep(l);
        if (step === null || !keep.has(step)) return false;
        this.steps.add(step);
        return true;
      });
    } else writeFileSync(path, '');
  }

  /** Steps of `written` with no line in the file (written before --samples-out was given). */
  missing(written: Iterable<number>): number[] {
    return [...written].filter((s) => !this.steps.has(s));
  }

  step(step: number, rows: SampleRecord[]): void {
    if (this.steps.has(step)) filterLines(this.path, (l) => sampleLineStep(l) !== step);
    this.steps.add(step);
    if (rows.length) appendFileSync(this.path, rows.map((r) => `${sampleLine(r)}\n`).join(''));
  }

  restart(): void {
    this.steps.clear();
    writeFileSync(this.path, '');
  }
}
