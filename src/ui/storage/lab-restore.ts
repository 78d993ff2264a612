/**
 * After a reload: the lab's run stored in this browser (lab-run-recorder.ts) and whether to pick it up. The
 * rule a workshop expects: the page's URL always holds the current settings, so a reload opens the
 * same URL and the stored run comes back by itself; a link to other settings (a colleague's shared
 * link, another lesson) wins and starts its own run, and the stored one is offered in a banner
 * ("Resume run from step N?") instead. A finished-by-error run (non-finite metric) is not resumed.
 */
import { CONFIG_KEYS, type Config, type ConfigKey } from '../../core/config';
import { configAfter } from '../../core/run/recovery';
import type { TimelineEntry } from '../../core/loop';
import type { MetricsFrame, SampleTrace } from '../../core/metrics';
import type { LabSnapshot } from '../../../workers/lab.api';
import { storeError, type StoredExperiment } from './db';
import type { LabRunStore } from './lab-run-store';

export interface StoredLabRun {
  record: StoredExperiment;
  frames: MetricsFrame[];
  snapshot: LabSnapshot | null;
  /** Traces stored for the last frame's step (the inspector shows them again). */
  traces: SampleTrace[];
}

export type RestoreDecision =
  | { kind: 'none' }
  /** The URL's settings are the stored run's: restore it now. */
  | { kind: 'resume'; run: StoredLabRun }
  /** The URL asks for other settings: start those, offer the stored run (the keys that differ). */
  | { kind: 'offer'; run: StoredLabRun; differs: ConfigKey[] };

export function configDiff(a: Config, b: Config): ConfigKey[] {
  return CONFIG_KEYS.filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
}

export function decideRestore(run: StoredLabRun | null, urlConfig: Config): RestoreDecision {
  if (!run || !run.frames.length) return { kind: 'none' };
  const cell = run.record.cells[0];
  if (run.record.kind !== 'run' || !cell || cell.stoppedBy) return { kind: 'none' };
  const now = configAfter(cell.timeline);
  if (!now) return { kind: 'none' };
  // a run continued from another run's fork point (Compare) can only come back from its snapshot
  if (!run.snapshot && cell.timeline[0].step > 0) return { kind: 'none' };
  const differs = configDiff(now, urlConfig);
  return differs.length ? { kind: 'offer', run, differs } : { kind: 'resume', run };
}

/** The record 'lab-run' names, its frames, snapshot and the last step's traces; null: nothing stored. */
export async function loadLabRun(store: LabRunStore): Promise<StoredLabRun | null> {
  const id = await store.getLabRun();
  if (!id) return null;
  const record = await store.get(id);
  if (!record) return null;
  try {
    const [frames] = await store.frames(id);
    const last = frames?.at(-1)?.step ?? 0;
    const snapshot = (await store.snapshot(id)) ?? null;
    const traces = (await store.traces(id, last)) ?? [];
    return { record, frames: frames ?? [], snapshot: snapshot && snapshot.step <= last ? snapshot : null, traces };
  } catch (e) {
    throw storeError(e, 'reading the stored lab run');
  }
}
