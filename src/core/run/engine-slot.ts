/**
 * What a lab session runs on: its engine, made for a model shape and kept while the shape stays,
 * and the task's base weights, loaded on it once per base key (deps.ts) and kept while it stays.
 */
import type { Config } from '../config';
import type { PolicyEngine } from '../engine';
import { policyShape } from '../pretrain';
import { baseKey, type BaseWeights, type SessionDeps } from './deps';

export interface SlotHooks {
  /** A new engine is about to be made: the run on the old one ends now. */
  replacing(): Promise<void>;
  /** An engine of this slot lost its device (only the current one counts: `engine` says which). */
  lost(engine: PolicyEngine, why: string): void;
}

export class EngineSlot {
  engine: PolicyEngine | null = null;
  private shape = '';
  private cached: { key: string; base: BaseWeights } | null = null;

  constructor(
    private readonly deps: SessionDeps,
    private readonly hooks: SlotHooks,
  ) {}

  /** The engine for a config's model shape (the current one when the shape is the same). */
  async engineFor(config: Config): Promise<PolicyEngine> {
    const shape = JSON.stringify(policyShape(config));
    if (this.engine && shape === this.shape) return this.engine;
    await this.hooks.replacing();
    await this.dispose();
    const engine = await this.deps.createEngine(policyShape(config));
    Object.assign(this, { engine, shape, cached: null });
    void engine.lost?.then((why) => this.hooks.lost(engine, why));
    return engine;
  }

  /** The task's base for `config` on the current engine: loaded (checkpoint or pretraining) once per base key. */
  async baseFor(config: Config, progress: (message: string) => void): Promise<BaseWeights> {
    const key = baseKey(config);
    const engine = await this.engineFor(config);
    if (this.cached?.key !== key) this.cached = { key, base: await this.deps.loadBase(engine, config, progress) };
    return this.cached.base;
  }

  async dispose(): Promise<void> {
    const old = this.engine;
    this.engine = null; // before disposing: its loss report is then ignored
    this.cached = null;
    await old?.dispose();
  }
}
