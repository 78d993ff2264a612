// The engine of a process (or worker thread) that trains cells one after another (`npm run experiment -- --all` in
// this process, or each of its --jobs worker threads): created once per engine kind and model
// shape, and put back into a fresh engine's state for every cell (engine-setup.ts freshState), so
// that a cell's frames are those of an engine of its own, bit for bit (experiment-jobs.test.ts),
// without paying an engine start (the graphs built, their sessions created) for every cell.
import type { Config } from '../core/config';
import type { PolicyEngine } from '../core/engine';
import { policyShape } from '../core/pretrain';
import { createCliEngine, freshState, type EngineKind } from './engine-setup';

export class EngineReuse {
  private held: { key: string; engine: PolicyEngine } | null = null;
  /** Engines created so far (one per shape change). */
  created = 0;

  /** An engine for `cfg` in a fresh engine's state: the one held when its kind and shape fit, else a new one. */
  async engine(kind: EngineKind, cfg: Config): Promise<PolicyEngine> {
    const key = `${kind} ${JSON.stringify(policyShape(cfg))}`;
    if (this.held?.key === key) {
      await freshState(this.held.engine, kind, cfg);
      return this.held.engine;
    }
    await this.dispose();
    const engine = await createCliEngine(kind, cfg);
    this.held = { key, engine };
    this.created++;
    return engine;
  }

  async dispose(): Promise<void> {
    const held = this.held;
    this.held = null;
    await held?.engine.dispose();
  }
}
