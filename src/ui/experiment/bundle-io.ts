/**
 * Bundles in the lab (pure): the open experiment → one versioned JSON (the core's bundle format),
 * a file → a validated bundle or per-field errors, a bundle → a stored record, and stored runs side
 * by side as one read-only experiment.
 */
import { CODE_VERSION, parseBundle, type ExperimentBundle } from '../../core/experiment/bundle';
import type { ExperimentSpec } from '../../core/experiment/spec';
import type { TimelineEntry } from '../../core/loop';
import type { MetricsFrame } from '../../core/metrics';
import type { StoredCell, StoredExperiment } from '../storage/store';

export function bundleText(spec: ExperimentSpec, cells: readonly StoredCell[], frames: readonly MetricsFrame[][], timelines: readonly TimelineEntry[][]): string {
  const bundle: ExperimentBundle = {
    schema: 'invariant-lab/experiment',
    schemaVersion: 1,
    codeVersion: CODE_VERSION,
    spec,
    runs: cells.map((c, i) => ({
      variant: c.variant,
      seed: c.seed,
      config: c.config,
      timeline: timelines[i] ?? c.timeline,
      // traces are per-session detail, not part of a bundle
      frames: (frames[i] ?? []).map((f) => ({ ...f, trace: [] })),
      ...(c.stoppedBy && c.stoppedBy !== 'done' ? { stoppedBy: c.stoppedBy } : {}),
    })),
  };
  return JSON.stringify(bundle);
}

/** Parse and validate; every problem as one line "field: message". */
export function readBundle(text: string): { bundle: ExperimentBundle } | { errors: string[] } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { errors: [`(file): not JSON (${e instanceof Error ? e.message : String(e)})`] };
  }
  try {
    return { bundle: parseBundle(json) };
  } catch (e) {
    const fields = (e as { errors?: { field: string; message: string }[] }).errors;
    return { errors: fields?.length ? fields.map((f) => `${f.field}: ${f.message}`) : [e instanceof Error ? e.message : String(e)] };
  }
}

/** A validated bundle as a stored record (kind 'imported') and its frames per cell index. */
export function bundleRecord(b: ExperimentBundle, id: string, now = Date.now()): { record: StoredExperiment; frames: MetricsFrame[][] } {
  const S = b.spec.seeds.length;
  const n = b.spec.variants.length * S;
  const cells: StoredCell[] = [];
  const frames: MetricsFrame[][] = [];
  for (const r of b.runs) {
    const i = r.variant * S + b.spec.seeds.indexOf(r.seed);
    cells[i] = { variant: r.variant, seed: r.seed, config: r.config, timeline: r.timeline, frameCount: r.frames.length, batches: 0, step: r.frames.at(-1)?.step ?? 0, stoppedBy: r.stoppedBy ?? 'done' };
    frames[i] = r.frames.map((f) => ({ ...f, trace: f.trace ?? [] }));
  }
  for (let i = 0; i < n; i++) {
    if (!cells[i]) throw new Error(`bundle has no run for cell ${i} (variant ${Math.floor(i / S)}, seed ${b.spec.seeds[i % S]})`);
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
