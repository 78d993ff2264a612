/**
 * Bundles in the lab: the open experiment → the core's versioned bundle (one JSON file), a file →
 * a validated bundle (core parseBundle) or its per-field errors, a bundle → a stored record, and
 * stored runs side by side as one read-only experiment.
 */
import { errorText } from '../../core/unknown';
import pkg from '../../../package.json';
import { errorLines } from '../../core/config';
import { BundleError, makeBundle, parseBundle, runIndex, type BundleRun, type ExperimentBundle } from '../../core/experiment/bundle';
import { cellCount, type ExperimentSpec } from '../../core/experiment/spec';
import type { TimelineEntry } from '../../core/loop';
import type { MetricsFrame } from '../../core/metrics';
import type { StoredCell, StoredExperiment } from '../storage/db';

/** Code version of bundles the lab writes: package version + git commit of the build (vite.config.ts). */
export const LAB_CODE_VERSION: string = import.meta.env.VITE_CODE_VERSION ?? `${pkg.name}@${pkg.version}+lab`;

export function bundleOf(spec: ExperimentSpec, cells: readonly StoredCell[], frames: readonly MetricsFrame[][], timelines: readonly TimelineEntry[][], codeVersion = LAB_CODE_VERSION): ExperimentBundle {
  const runs = cells.map((c, i): BundleRun => {
    const run: BundleRun = {
      variant: c.variant,
      seed: c.seed,
      config: c.config,
      timeline: timelines[i] ?? c.timeline,
      // traces are per-session detail, not part of a bundle
      frames: (frames[i] ?? []).map((f) => ({ ...f, trace: [] })),
    };
    if (c.stoppedBy && c.stoppedBy !== 'done') run.stoppedBy = c.stoppedBy;
    if (c.engine) run.engine = c.engine;
    if (c.resumed?.length) run.resumed = c.resumed;
    return run;
  });
  return makeBundle(spec, runs, codeVersion);
}

/** Parse and validate; every problem as one line "field: message". */
export function readBundle(text: string): { bundle: ExperimentBundle } | { errors: string[] } {
  try {
    return { bundle: parseBundle(text) };
  } catch (e) {
    if (e instanceof BundleError) return { errors: errorLines(e.errors) };
    return { errors: [errorText(e)] };
  }
}

/** A validated bundle as a stored record (kind 'imported') and its frames per cell; missing cells stay empty. */
export function bundleRecord(b: ExperimentBundle, id: string, now = Date.now()): { record: StoredExperiment; frames: MetricsFrame[][] } {
  const S = b.spec.seeds.length;
  const cells: StoredCell[] = [];
  const frames: MetricsFrame[][] = [];
  for (let i = 0; i < cellCount(b.spec); i++) {
    const variant = Math.floor(i / S);
    const seed = b.spec.seeds[i % S];
    cells[i] = { variant, seed, config: { ...b.spec.base, ...b.spec.variants[variant].patch } as StoredCell['config'], timeline: [], frameCount: 0, batches: 0, step: 0, stoppedBy: 'not in the bundle' };
    frames[i] = [];
  }
  for (const r of b.runs) {
    const i = runIndex(b.spec, r);
    cells[i] = { variant: r.variant, seed: r.seed, config: r.config, timeline: r.timeline, frameCount: r.frames.length, batches: 0, step: r.frames.at(-1)?.step ?? 0, stoppedBy: r.stoppedBy ?? 'done', ...(r.engine ? { engine: r.engine } : {}), ...(r.resumed ? { resumed: r.resumed } : {}) };
    frames[i] = r.frames.map((f) => ({ ...f, trace: f.trace ?? [] }));
  }
  return { record: { id, name: b.spec.name, kind: 'imported', createdAt: now, updatedAt: now, spec: b.spec, cells, keepWeights: false, codeVersion: b.codeVersion }, frames };
}

/**
 * Stored runs as one read-only experiment: each record's variants become variants (named
 * "<record>: <variant>", patch = its base + patch), paired by seed position. Needs equal seed counts.
 */
export function compareRecords(recs: { rec: StoredExperiment; frames: MetricsFrame[][] }[]): { record: StoredExperiment; frames: MetricsFrame[][] } {
  if (recs.length < 2) throw new Error('choose at least two stored runs to compare');
  const S = recs[0].rec.spec.seeds.length;
  const odd = recs.find((r) => r.rec.spec.seeds.length !== S);
  if (odd) throw new Error(`compare needs the same number of seeds: "${recs[0].rec.name}" has ${S}, "${odd.rec.name}" has ${odd.rec.spec.seeds.length}`);
  const variants = recs.flatMap(({ rec }) => rec.spec.variants.map((v) => ({ name: `${rec.name}: ${v.name}`, patch: { ...rec.spec.base, ...v.patch } })));
  const spec: ExperimentSpec = { version: 1, name: `compare ${recs.map((r) => r.rec.name).join(' / ')}`, base: {}, variants, seeds: recs[0].rec.spec.seeds, steps: Math.max(...recs.map((r) => r.rec.spec.steps)) };
  const cells = recs.flatMap(({ rec }) => rec.cells);
  const frames = recs.flatMap((r) => r.frames);
  const now = Date.now();
  return {
    record: { id: `compare-${now}`, name: spec.name, kind: 'imported', createdAt: now, updatedAt: now, spec, keepWeights: false, cells: cells.map((c, k) => ({ ...c, variant: Math.floor(k / S) })) },
    frames,
  };
}
