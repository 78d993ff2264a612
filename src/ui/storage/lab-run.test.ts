// The lab run recording on fake-indexeddb: batches appended to one record per run id; a reset
// (new run id) or a replaced history starts a new record.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { makeConfig } from '../../core/config';
import type { MetricsFrame } from '../../core/metrics';
import { LabRunRecording } from './lab-run';
import { RunStore } from './store';

const frame = (step: number): MetricsFrame => ({ step, version: step, scalars: { x: step }, series: {}, ratioEdges: [], perf: {}, changes: {}, trace: [] }) as unknown as MetricsFrame;

describe('LabRunRecording', () => {
  it('stores the lab run as it trains, a new record per run', async () => {
    const errors: string[] = [];
    const rec = new LabRunRecording((m) => errors.push(m), () => RunStore.open('lab-run-test'));
    const config = makeConfig({ seed: 3, steps: 50 });
    const view = { runId: 1, config, timeline: [{ step: 0, patch: config }], backend: 'wasm' };
    const frames = [1, 2].map(frame);
    rec.update(view, frames);
    rec.update(view, [...frames, frame(3)]);
    rec.update({ ...view, runId: 2 }, [frame(1)]);
    await rec.flush();
    const store = await RunStore.open('lab-run-test');
    const list = await store.list();
    expect(list.map((r) => [r.kind, r.cells[0].frameCount, r.cells[0].engine, r.spec.seeds, r.spec.steps])).toEqual([
      ['run', 1, 'wasm', [3], 50],
      ['run', 3, 'wasm', [3], 50],
    ]);
    expect((await store.frames(list[1].id))[0].map((f) => f.step)).toEqual([1, 2, 3]);
    expect(list[1].spec.base).not.toHaveProperty('seed');
    expect(errors).toEqual([]);
    store.close();
    await rec.close();
  });
});
