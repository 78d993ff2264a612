// The contract between the pure simulation core and whatever runs the policy network.
// The core never imports onnxruntime: the engine (src/engine) implements this interface on
// WebGPU or WASM, and tests may implement it on anything that honours the same semantics.
//
// Layout conventions (one for every call, so arrays line up without reindexing):
// - a batch of B sequences is a row-major Int32Array of B × context tokens (PAD = 0 after the end);
// - per-token arrays (log-probs, entropies, advantages, masks) are B × (context − 1): entry [b, t]
//   concerns the prediction of token t + 1 from tokens 0..t.

export interface PolicyShape {
  vocab: number;
  context: number;
  dModel: number;
  layers: number;
  heads: number;
  mlp: number;
}

/** An immutable set of weights the engine keeps alive (the rollout copy, the frozen base...). */
export interface WeightsHandle {
  readonly id: number;
  /** Trainer version the weights were taken at (number of optimizer steps). */
  readonly version: number;
}

export interface SampleRequest {
  batch: number;
  /** B × context; positions ≥ promptLength[b] are ignored. */
  prompt: Int32Array;
  promptLength: Int32Array;
  /** Tokens generated per row after its prompt (promptLength[b] + newTokens ≤ context). */
  newTokens: number;
  temperature: number;
  /** B × newTokens uniforms in [0, 1): inverse-CDF sampling, so tokens are a function of the seed. */
  uniforms: Float32Array;
  /** Weights to sample with; defaults to the trainer's current weights. */
  weights?: WeightsHandle;
}

export interface SampleResult {
  /** B × context: prompt, generated tokens, PAD beyond. */
  tokens: Int32Array;
  /** B × (context − 1), log π(token t+1 | ≤ t) for generated tokens, 0 elsewhere. */
  logp: Float32Array;
  /** B × (context − 1), entropy of the next-token distribution for generated tokens, 0 elsewhere. */
  entropy: Float32Array;
}

export interface ScoreRequest {
  batch: number;
  tokens: Int32Array;
  temperature: number;
  weights?: WeightsHandle;
}

export interface ScoreResult {
  logp: Float32Array;
  entropy: Float32Array;
}

export interface OptimizerHyper {
  lr: number;
  beta1: number;
  beta2: number;
  eps: number;
  weightDecay: number;
  /** Global gradient-norm clip; 0 disables it. */
  maxGradNorm: number;
}

export type LossAggregation = 'token-mean' | 'seq-mean-token-mean';

export interface PpoHyper extends OptimizerHyper {
  clipLow: number;
  clipHigh: number;
  /** Dual-clip constant c (> 1) for negative advantages; 0 disables it. */
  dualClip: number;
  entropyCoef: number;
  klCoef: number;
  aggregation: LossAggregation;
  temperature: number;
}

export interface TrainBatch {
  batch: number;
  tokens: Int32Array;
  advantages: Float32Array;
  oldLogp: Float32Array;
  /** Reference log-probs for the KL term (ignored when klCoef = 0). */
  refLogp: Float32Array;
  lossMask: Float32Array;
}

export interface TrainMetrics {
  loss: number;
  pgLoss: number;
  clipfracLow: number;
  clipfracHigh: number;
  ppoKl: number;
  entropy: number;
  gradNorm: number;
  /** Per-token ratio ρ = π_θ/π_old before this update, B × (context − 1) (masked tokens included). */
  ratio: Float32Array;
}

export interface SftBatch {
  batch: number;
  tokens: Int32Array;
  lossMask: Float32Array;
}

export interface SftMetrics {
  loss: number;
  gradNorm: number;
}

/**
 * Everything an engine holds for a run, exactly (a resume after a reload continues bit for bit):
 * the trainer's weights and optimizer state and the weights behind some handles (frozen base,
 * rollout copies). The arrays' layout is the engine's own; only the same engine kind reads them.
 */
export interface EngineState {
  /** Which engine wrote it (an engine refuses another's state). */
  kind: string;
  /** Optimizer steps taken (the trainer's version). */
  version: number;
  /** The trainer: weights and optimizer moments in the engine's layout. */
  trainer: Float32Array | Float64Array;
  /** The weights behind the handles given to exportState, in that order, with their versions. */
  handles: { version: number; weights: Float32Array | Float64Array }[];
}

export interface PolicyEngine {
  readonly shape: PolicyShape;
  /** 'webgpu' or 'wasm'; why a fallback happened, when it did. */
  readonly backend: string;
  readonly backendNote: string;
  sample(req: SampleRequest): Promise<SampleResult>;
  score(req: ScoreRequest): Promise<ScoreResult>;
  trainStep(batch: TrainBatch, hyper: PpoHyper): Promise<TrainMetrics>;
  sftStep(batch: SftBatch, hyper: OptimizerHyper & { temperature: number }): Promise<SftMetrics>;
  /** Current trainer weights as one flat Float32Array (parameter layout of src/model). */
  getWeights(): Promise<Float32Array>;
  /** Replace the trainer weights and reset the optimizer state. */
  setWeights(weights: Float32Array): Promise<void>;
  /** Keep the current trainer weights alive under a handle (rollout copy, frozen base). */
  snapshot(): WeightsHandle;
  release(handle: WeightsHandle): void;
  /** Number of optimizer steps taken since the last setWeights. */
  readonly version: number;
  /** The exact training state (see EngineState); absent where an engine cannot give it. */
  exportState?(handles: readonly WeightsHandle[]): Promise<EngineState>;
  /**
   * Put back a state from exportState: the trainer as it was (weights, moments, version); returns
   * new handles holding the exported handles' weights and versions, in their order.
   */
  importState?(state: EngineState): Promise<WeightsHandle[]>;
  dispose(): Promise<void>;
  /**
   * Resolves (with the reason) when the device behind the engine is gone for good, e.g. a lost
   * WebGPU device; absent for engines that cannot lose theirs (WASM, tabular).
   */
  readonly lost?: Promise<string>;
}
