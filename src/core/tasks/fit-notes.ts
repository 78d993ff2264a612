// What a task fit cannot know, said as notes: each names the spec field it concerns and whether the
// user should say what is true (`ask`).

export type FitNoteKind = 'mapping' | 'dropped' | 'few-samples' | 'unsampled' | 'unjudged' | 'few-judged' | 'non-ternary' | 'invented' | 'session' | 'tokens';

export interface FitNote {
  kind: FitNoteKind;
  /** The spec field the note is about ('' = the spec as a whole). */
  path: string;
  message: string;
  /** The fit put a default where the log says nothing: the user should say what is true. */
  ask: boolean;
}

export class FitNotes {
  readonly list: FitNote[] = [];

  add(kind: FitNoteKind, path: string, message: string, ask = false): void {
    this.list.push({ kind, path, message, ask });
  }
}

export const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
export const fmt = (xs: readonly number[]) => `[${xs.map((x) => x.toFixed(3)).join(', ')}]`;
