// What the engine's session runs cost in transfers, counted per phase (generate, score, train, sft):
// session.run calls, inputs handed over from the CPU (uploads on WebGPU, copies into the WASM heap)
// and outputs brought back to the CPU (readbacks), with their bytes. These counts do not depend on
// the machine: the bench reports them per train step and per sampling pass on both backends.

export interface RunCosts {
  runs: number;
  uploads: number;
  upload_bytes: number;
  readbacks: number;
  readback_bytes: number;
}

/** Counts by name, largest first (ties by name). */
export const sortedCounts = (c: Record<string, number>) => Object.fromEntries(Object.entries(c).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));

export type Phase = 'generate' | 'score' | 'train' | 'sft';

const zero = (): RunCosts => ({ runs: 0, uploads: 0, upload_bytes: 0, readbacks: 0, readback_bytes: 0 });

interface Sized {
  location: string;
  dims: readonly number[];
  type: string;
}

const BYTES: Record<string, number> = { float32: 4, int32: 4, int64: 8, bool: 1 };
const bytesOf = (t: Sized) => t.dims.reduce((a, d) => a * d, 1) * (BYTES[t.type] ?? 4);
const onCpu = (t: Sized) => t.location === 'cpu' || t.location === 'cpu-pinned';

export class RunCostMeter {
  private byPhase = new Map<Phase, RunCosts>();

  /** One session run: its feeds and the outputs it returned (those on the CPU were read back). */
  record(phase: Phase, feeds: Record<string, Sized>, outputs: Record<string, Sized>): void {
    const c = this.byPhase.get(phase) ?? zero();
    c.runs++;
    for (const t of Object.values(feeds)) {
      if (!onCpu(t)) continue;
      c.uploads++;
      c.upload_bytes += bytesOf(t);
    }
    for (const t of Object.values(outputs)) {
      if (!onCpu(t)) continue;
      c.readbacks++;
      c.readback_bytes += bytesOf(t);
    }
    this.byPhase.set(phase, c);
  }

  /** Totals since the last reset, all phases together and per phase. */
  read(): RunCosts & { phases: Partial<Record<Phase, RunCosts>> } {
    const total = zero();
    const phases: Partial<Record<Phase, RunCosts>> = {};
    for (const [phase, c] of this.byPhase) {
      phases[phase] = { ...c };
      for (const k of Object.keys(total) as (keyof RunCosts)[]) total[k] += c[k];
    }
    return { ...total, phases };
  }

  reset(): void {
    this.byPhase.clear();
  }
}
