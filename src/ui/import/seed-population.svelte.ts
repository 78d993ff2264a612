/**
 * A fitted task trained at seeds 1..N in the page (rune state): the experiments' path — the core's
 * simulationSpec (one variant, these seeds) cut into cells (experimentCells) and trained by the
 * experiment workers as populations (src/ui/experiment/runner.ts: one worker per core, the base
 * pretrained once per worker from BASE_SEED), every cell for the config's steps. Its frames per
 * seed are what the band and the forecast read (seed-band-view.ts).
 */
import type { Config } from '../../core/config';
import { experimentCells } from '../../core/experiment/spec';
import type { MetricsFrame } from '../../core/metrics';
import { simulationSpec } from '../../core/tasks/fit-forecast';
import { errorText } from '../../core/unknown';
import type { CellFrames, GroupStatus } from '../../../workers/experiment.api';
import { startCellRunner, type CellRunner, type CellRunnerOptions } from '../experiment/runner';

/** Seeds 1..n, as the CLI's --simulate-seeds n. */
export const seedList = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

export class SeedPopulation {
  /** frames[k]: seed seeds[k]'s frames so far. */
  frames = $state.raw<MetricsFrame[][]>([]);
  groups = $state.raw<GroupStatus[]>([]);
  error = $state('');
  #runner: CellRunner | null = null;
  #disposed = false;

  constructor(
    readonly config: Config,
    readonly seeds: readonly number[],
    readonly name: string,
  ) {
    this.frames = seeds.map(() => []);
  }

  get steps(): number {
    return this.config.steps;
  }

  /** The step every seed has reached. */
  get step(): number {
    return Math.min(...this.frames.map((f) => f.at(-1)?.step ?? 0));
  }

  /** Cells that stopped before their last step (a non-finite metric, an error), with why. */
  get stopped(): string[] {
    return this.groups.filter(Boolean).flatMap((g) => g.cells.filter((c) => c.phase === 'stopped' || c.phase === 'error').map((c) => `seed ${this.seeds[c.index]}: ${c.message}`));
  }

  get done(): boolean {
    return this.step >= this.steps || (this.stopped.length > 0 && this.groups.every((g) => g && g.phase !== 'running' && g.phase !== 'loading'));
  }

  /** One line: what the workers do now. */
  get progress(): string {
    if (this.error) return `failed: ${this.error}`;
    const g = this.groups.filter(Boolean);
    const n = this.seeds.length;
    if (!g.length) return `starting the workers for ${n} seed${n > 1 ? 's' : ''}…`;
    if (g.some((x) => x.phase === 'loading')) return `${g.map((x) => x.message).filter(Boolean)[0] ?? 'loading the base'}…`.replace(/…+$/, '…');
    const where = `${g[0].backend}, ${g.length} worker${g.length > 1 ? 's' : ''}`;
    const stopped = this.stopped.length ? ` · stopped early: ${this.stopped.join('; ')}` : '';
    if (this.step < this.steps && !this.done) return `training ${n} seeds: step ${this.step} of ${this.steps} (${where})…${stopped}`;
    return `trained ${n} seeds × ${this.step} steps (${where})${stopped}`;
  }

  /** Start the workers and train every seed for the config's steps. */
  async start(opts: CellRunnerOptions): Promise<void> {
    const spec = simulationSpec(this.config, this.seeds, this.name);
    const cells = experimentCells(spec).map((c) => ({ index: c.index, config: c.config, variant: c.variant }));
    try {
      const runner = await startCellRunner(cells, opts, { frames: (b) => this.#onFrames(b), status: (i, s) => this.#onStatus(i, s) });
      if (this.#disposed) return runner.dispose();
      this.#runner = runner;
      await runner.step(this.steps);
    } catch (e) {
      if (!this.#disposed) this.error = errorText(e);
    }
  }

  #onFrames(batch: CellFrames[]): void {
    if (this.#disposed) return;
    const next = [...this.frames];
    for (const b of batch) next[b.index] = [...next[b.index], ...b.frames];
    this.frames = next;
  }

  #onStatus(group: number, s: GroupStatus): void {
    if (this.#disposed) return;
    const next = [...this.groups];
    next[group] = s;
    this.groups = next;
  }

  dispose(): void {
    this.#disposed = true;
    this.#runner?.dispose();
    this.#runner = null;
  }
}
