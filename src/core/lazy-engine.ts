// A PolicyEngine made only when first used: where a population trains the cells, the base loader
// still takes a single engine, which it only runs when it has to pretrain (a shipped checkpoint
// needs the shape alone) — so no second engine is built, and none is probed, for nothing.
import type { PolicyEngine, PolicyShape } from './engine';

export interface LazyEngine extends PolicyEngine {
  /** Whether the engine was made. */
  readonly made: boolean;
}

export function lazyEngine(shape: PolicyShape, make: () => Promise<PolicyEngine>): LazyEngine {
  let engine: Promise<PolicyEngine> | null = null;
  let ready: PolicyEngine | null = null;
  const get = () => (engine ??= make().then((e) => (ready = e)));
  const need = () => {
    if (!ready) throw new Error('lazy engine: snapshot/release before the engine was made');
    return ready;
  };
  return {
    shape,
    get made() {
      return engine !== null;
    },
    get backend() {
      return ready?.backend ?? '';
    },
    get backendNote() {
      return ready?.backendNote ?? '';
    },
    get version() {
      return ready?.version ?? 0;
    },
    sample: async (r) => (await get()).sample(r),
    score: async (r) => (await get()).score(r),
    trainStep: async (b, h) => (await get()).trainStep(b, h),
    sftStep: async (b, h) => (await get()).sftStep(b, h),
    getWeights: async () => (await get()).getWeights(),
    setWeights: async (w) => (await get()).setWeights(w),
    snapshot: () => need().snapshot(),
    release: (h) => need().release(h),
    dispose: async () => {
      if (engine) await (await engine).dispose();
    },
  };
}
