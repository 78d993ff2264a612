/**
 * A lesson's run on the transformer (WASM engine in Node, the shipped base) and the headline's
 * numbered markers on it, computed by the plot's own function (stateMarkers) with the base as
 * step 0: what the page shows for that seed. Used by the lesson-a measurement
 * (lesson-a-measure.ts) and by the test that its default seed still shows what the text says.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { shippedBase } from '../../src/cli/checkpoints';
import { makeConfig } from '../../src/core/config';
import { Run } from '../../src/core/loop';
import type { DivergenceMarker } from '../../src/core/measure/divergence';
import type { MetricsFrame } from '../../src/core/metrics';
import { parsePreset } from '../../src/core/presets';
import { policyShape } from '../../src/core/pretrain';
import { createNodeEngine, ort } from '../../src/engine/node';
import { stateMarkers } from '../../src/ui/views/data';

const root = join(import.meta.dirname, '../..');

export interface SeedMarkers {
  seed: number;
  markers: DivergenceMarker[];
  /** First step whose support of the state reads 1 (null: never). */
  supportFirst1: number | null;
  /** Token entropy at the last step as a share of step 0's. */
  endShare: number;
}

/**
 * Train `preset` on `seed` for its steps and return the plot's markers for `state` (the lesson's).
 * `until`: stop at the first step after which the markers so far satisfy it. The markers of the
 * first n frames are exactly the whole run's markers up to the point their rule has seen (each
 * marker reads the frames up to its step plus its window), so a verdict on the first markers, such
 * as "the first drop to one behavior", is the same as after all steps (supportFirst1 and endShare
 * then describe the steps run).
 */
export async function lessonMarkers(preset: string, seed: number, until?: (markers: DivergenceMarker[]) => boolean): Promise<SeedMarkers> {
  ort.env.wasm.numThreads = 1;
  const p = parsePreset(preset, JSON.parse(readFileSync(join(root, 'public/presets', `${preset}.json`), 'utf8')));
  const state = p.state ?? 'mean';
  const cfg = makeConfig({ ...p.config, seed });
  const base = shippedBase(cfg.task, policyShape(cfg), cfg.temperature);
  if (typeof base === 'string') throw new Error(`no shipped base: ${base}`);
  const engine = await createNodeEngine(policyShape(cfg), { seed: cfg.seed, weights: base.weights });
  const run = await Run.create(engine, cfg);
  const frames: MetricsFrame[] = [];
  const markersOf = () => stateMarkers(frames, { step: 0, scalars: run.baseScalars } as unknown as MetricsFrame, state, { eps: cfg.feasibilityEps, samples: cfg.behaviorSamples, highShare: 0.8 });
  try {
    for (let s = 0; s < cfg.steps; s++) {
      frames.push(await run.step());
      if (until?.(markersOf())) break;
    }
  } finally {
    run.dispose();
    await engine.dispose();
  }
  const tok0 = run.baseScalars['support/token_entropy'] as number;
  const markers = markersOf();
  const supportFirst1 = frames.find((f) => f.scalars[`support/behavior_support/${state}`] === 1)?.step ?? null;
  return { seed, markers, supportFirst1, endShare: (frames[frames.length - 1].scalars['support/token_entropy'] as number) / tok0 };
}
