/**
 * A lesson's run on the transformer (WASM engine in Node, the shipped base) and the headline's
 * numbered markers on it, computed by the plot's own function (stateMarkers) with the base as
 * step 0: what the page shows for that seed (page and Node runs agree bit for bit but for the last bit
 * of Math.log: docs/experiments.md). Used by the test that the lessons' seed-1 numbers are what a
 * fresh run shows (tests/unit/lesson-numbers.test.ts); the numbers over seeds come from experiment
 * records (src/core/experiment/seed-readings.ts reads them with the same marker rule).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { shippedBase } from '../../src/cli/checkpoints';
import { makeConfig, type Config } from '../../src/core/config';
import { Run } from '../../src/core/loop';
import type { DivergenceMarker } from '../../src/core/measure/divergence';
import type { MetricsFrame } from '../../src/core/metrics';
import { parsePreset } from '../../src/core/presets';
import { policyShape } from '../../src/core/pretrain';
import { createNodeEngine, ort } from '../../src/engine/node';
import { stateMarkers } from '../../src/core/measure/state-markers';

const root = join(import.meta.dirname, '../..');

export interface SeedMarkers {
  seed: number;
  markers: DivergenceMarker[];
  /** First step whose support of the state reads 1 (null: never). */
  supportFirst1: number | null;
  /** Token entropy at the last step as a share of step 0's. */
  endShare: number;
}

export interface LessonRun {
  frames: MetricsFrame[];
  /** The base's scalars: step 0 of the plots. */
  base: Readonly<Record<string, number>>;
  /** The state the lesson talks about ('mean' when it names none). */
  state: string;
  config: Config;
}

/**
 * Train `preset` on `seed` as the page does (its settings, `set` on top, the shipped base), for its
 * steps or `steps`; `until` stops it after the first step whose frames satisfy it.
 */
export async function runLesson(preset: string, seed: number, opts: { set?: Partial<Config>; steps?: number; until?: (soFar: LessonRun) => boolean } = {}): Promise<LessonRun> {
  ort.env.wasm.numThreads = 1;
  const p = parsePreset(preset, JSON.parse(readFileSync(join(root, 'public/presets', `${preset}.json`), 'utf8')));
  const cfg = makeConfig({ ...p.config, ...opts.set, seed, ...(opts.steps ? { steps: opts.steps } : {}) });
  const base = shippedBase(cfg.task, policyShape(cfg), cfg.temperature);
  if (typeof base === 'string') throw new Error(`no shipped base: ${base}`);
  const engine = await createNodeEngine(policyShape(cfg), { seed: cfg.seed, weights: base.weights });
  const run = await Run.create(engine, cfg);
  const out: LessonRun = { frames: [], base: run.baseScalars as Record<string, number>, state: p.state ?? 'mean', config: cfg };
  try {
    for (let s = 0; s < cfg.steps; s++) {
      out.frames.push(await run.step());
      if (opts.until?.(out)) break;
    }
  } finally {
    run.dispose();
    await engine.dispose();
  }
  return out;
}

/** The plot's markers for the lesson's state on a run's frames (the base as step 0). */
export function markersOf(r: Pick<LessonRun, 'frames' | 'base' | 'state' | 'config'>): DivergenceMarker[] {
  return stateMarkers(r.frames, { step: 0, scalars: r.base } as unknown as MetricsFrame, r.state, { eps: r.config.feasibilityEps, samples: r.config.behaviorSamples, highShare: 0.8 });
}

/** A run's markers, the step its support first read 1 and its token entropy at the end as a share of step 0's. */
export function seedMarkers(r: LessonRun, seed: number): SeedMarkers {
  const tok0 = r.base['support/token_entropy'];
  const supportFirst1 = r.frames.find((f) => f.scalars[`support/behavior_support/${r.state}`] === 1)?.step ?? null;
  return { seed, markers: markersOf(r), supportFirst1, endShare: (r.frames[r.frames.length - 1].scalars['support/token_entropy'] as number) / tok0 };
}
