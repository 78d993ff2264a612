// PolicyEngine on onnxruntime-web (the only place that touches it, through the module passed in:
// 'onnxruntime-web' in Node, browser.ts's build for the backend in the browser): a single run is a
// population of one (ort-population.ts), so the single run and the ensembles share one code path.
import type {
  EngineState, OptimizerHyper, PolicyEngine, PolicyShape, PpoHyper, SampleRequest, SampleResult, ScoreRequest,
  ScoreResult, SftBatch, SftMetrics, TrainBatch, TrainMetrics, WeightsHandle,
} from '../core/engine';
import type { ParamLayout } from '../model/layout';
import { OrtPopulation, type Backend, type OrtModule } from './ort-population';

export type { Backend, OrtModule } from './ort-population';
export { OrtPopulation } from './ort-population';

export interface OrtEngineOptions {
  backend: Backend;
  /** Seed of the deterministic init (ignored when `weights` is given). */
  seed: number;
  weights?: Float32Array;
  /** Why this backend was chosen (e.g. the WebGPU failure that caused a WASM fallback). */
  note?: string;
  /** Resolves when the backend's device is gone (WebGPU device loss); see PolicyEngine.lost. */
  lost?: Promise<string>;
}

export class OrtEngine implements PolicyEngine {
  lost?: Promise<string>;

  private constructor(readonly population: OrtPopulation) {}

  /** A single run over a population of one (its device-loss promise included). */
  static of(population: OrtPopulation): OrtEngine {
    if (population.size !== 1) throw new Error(`OrtEngine: a population of ${population.size}, expected 1`);
    const engine = new OrtEngine(population);
    engine.lost = population.lost;
    return engine;
  }

  static async create(ort: OrtModule, shape: PolicyShape, opts: OrtEngineOptions): Promise<OrtEngine> {
    const engine = new OrtEngine(await OrtPopulation.create(ort, shape, { ...opts, size: 1 }));
    engine.lost = opts.lost;
    return engine;
  }

  get shape(): PolicyShape {
    return this.population.shape;
  }
  get backend(): Backend {
    return this.population.backend;
  }
  get backendNote(): string {
    return this.population.backendNote;
  }
  get layout(): ParamLayout {
    return this.population.layout;
  }
  get version(): number {
    return this.population.version(0);
  }
  /** Where the trainer's parameters live ('gpu-buffer' on WebGPU after the first step, else 'cpu'). */
  get paramsLocation(): string {
    return this.population.paramsLocation;
  }

  async sample(req: SampleRequest): Promise<SampleResult> {
    return (await this.population.sample([req]))[0]!;
  }
  /** The same sampling recomputing the whole prefix at every position (benchmark baseline). */
  async sampleRecompute(req: SampleRequest): Promise<SampleResult> {
    return (await this.population.sampleRecompute([req]))[0]!;
  }
  async score(req: ScoreRequest): Promise<ScoreResult> {
    return (await this.population.score([req]))[0]!;
  }
  async trainStep(batch: TrainBatch, hyper: PpoHyper): Promise<TrainMetrics> {
    return (await this.population.trainStep([{ batch, hyper }]))[0]!;
  }
  async sftStep(batch: SftBatch, hyper: OptimizerHyper & { temperature: number }): Promise<SftMetrics> {
    return (await this.population.sftStep([{ batch, hyper }]))[0]!;
  }
  getWeights(): Promise<Float32Array> {
    return this.population.getWeights(0);
  }
  setWeights(weights: Float32Array): Promise<void> {
    return this.population.setWeights([weights]);
  }
  exportState(handles: readonly WeightsHandle[]): Promise<EngineState> {
    return this.population.exportMember(0, handles);
  }
  importState(state: EngineState): Promise<WeightsHandle[]> {
    return this.population.importMember(0, state);
  }
  snapshot(): WeightsHandle {
    return this.population.snapshot(0);
  }
  release(handle: WeightsHandle): void {
    this.population.release(handle);
  }
  dispose(): Promise<void> {
    return this.population.dispose();
  }
}
