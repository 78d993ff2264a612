// Does a re-run reproduce a bundle? Re-run cells against the bundle's, bit for bit in their
// deterministic parts (frame-difference.ts), saying why where the bundle explains a difference (a
// cell continued from weights only).
import { runIndex, type BundleRun, type ExperimentBundle, type Resume } from './bundle';
import { firstFrameDifference, type FrameDifference } from './frame-difference';

export interface Reproduction {
  /** Every re-run cell gave the same metrics bit for bit. */
  identical: boolean;
  cells: number;
  /** Cells whose engine differs from the stored one: bit-for-bit equality is not expected there. */
  otherEngine: number[];
  first?: FrameDifference & { cell: number };
  /** Stored cells that were continued in a way a clean run does not (e.g. from weights only). */
  resumed?: (Resume & { cell: number })[];
  /** Why it did not reproduce, when the bundle says: "cell 0 resumed at step 6 from stored weights". */
  why?: string;
}

/** The text for a cell that was not continued bit for bit. */
export const resumeText = (r: Resume & { cell: number }): string => `cell ${r.cell} resumed at step ${r.step} from ${r.from} (not bit for bit)`;

/** Compare re-run cells with the bundle's (matched by variant and seed). */
export function reproduceCheck(bundle: ExperimentBundle, reruns: readonly BundleRun[]): Reproduction {
  const out: Reproduction = { identical: true, cells: 0, otherEngine: [] };
  for (const r of reruns) {
    const cell = runIndex(bundle.spec, r);
    const stored = bundle.runs.find((s) => s.variant === r.variant && s.seed === r.seed);
    if (!stored) throw new RangeError(`re-run cell ${cell} (variant ${r.variant}, seed ${r.seed}) is not in the bundle`);
    out.cells++;
    if (stored.engine && r.engine && stored.engine !== r.engine) out.otherEngine.push(cell);
    for (const res of stored.resumed ?? []) if (!res.exact) (out.resumed ??= []).push({ ...res, cell });
    const d = firstFrameDifference(stored.frames, r.frames);
    if (d && out.identical) {
      out.identical = false;
      out.first = { ...d, cell };
    }
  }
  if (!out.identical && out.resumed) {
    // the first difference at or after an inexact resume of its cell explains it
    const cause = out.resumed.find((res) => res.cell === out.first!.cell && res.step < out.first!.step) ?? out.resumed[0];
    out.why = `${resumeText(cause)}${out.resumed.length > 1 ? `; ${out.resumed.length - 1} more resume(s): ${out.resumed.filter((x) => x !== cause).map(resumeText).join('; ')}` : ''}`;
  }
  return out;
}
