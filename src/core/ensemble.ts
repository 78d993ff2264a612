// An ensemble: P runs (seeds, or any configs with the same model shape) trained together on one
// PopulationEngine. Member p is exactly `Run` with configs[p] on its own engine — the same loop,
// RNG streams, serving, gates and queue — except that the members' engine calls of each phase run
// as one population call (see population.ts).
import type { Config } from './config';
import type { PolicyShape } from './engine';
import { Run } from './loop';
import type { TrainedFrame } from './metrics';
import { Population, type PopulationEngine } from './population';

/** The model-shape settings every member of one population must share (one graph). */
export const SHAPE_FIELDS = ['dModel', 'layers', 'heads', 'mlp'] as const;

/** `config` once per seed. */
export function seedConfigs(config: Config, seeds: readonly number[]): Config[] {
  return seeds.map((seed) => ({ ...config, seed }));
}

export class Ensemble {
  private constructor(
    readonly population: Population,
    readonly members: Run[],
  ) {}

  /**
   * Start one Run per config on a population engine of configs.length members that already holds
   * each member's base weights (see Run.create: base frozen, SFT on gold if configured).
   */
  static async create(engine: PopulationEngine, configs: readonly Config[], opts: { onSftStep?: (member: number, step: number, loss: number) => void } = {}): Promise<Ensemble> {
    if (configs.length !== engine.size) throw new Error(`Ensemble: ${configs.length} configs for a population of ${engine.size}`);
    for (const c of configs) {
      for (const k of SHAPE_FIELDS) {
        if (c[k] !== configs[0][k]) throw new Error(`Ensemble: every member needs the same model shape (${k}: ${configs[0][k]} vs ${c[k]})`);
      }
    }
    const population = new Population(engine);
    const runs = await population.together(configs.map((c, p) => (member) =>
      Run.create(member, c, { onSftStep: opts.onSftStep ? (s, l) => opts.onSftStep!(p, s, l) : undefined })));
    return new Ensemble(population, runs as Run[]);
  }

  get size(): number {
    return this.members.length;
  }

  get shape(): PolicyShape {
    return this.population.engine.shape;
  }

  /** One step of every member (or of the members listed); frames in member order (undefined for those left out). */
  async step(only?: readonly number[]): Promise<(TrainedFrame | undefined)[]> {
    return this.population.together(this.members.map((run, p) => (only && !only.includes(p) ? null : () => run.step())));
  }

  /** A live setting for one member (already checked: applyPatch), applied at its next step, as Run.setConfig. */
  setConfig(member: number, patch: Partial<Config>): void {
    this.members[member].setConfig(patch);
  }

  /** Release the members' handles and the engine. */
  async dispose(): Promise<void> {
    for (const r of this.members) r.dispose();
    await this.population.engine.dispose();
  }
}
