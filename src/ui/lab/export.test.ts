import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../core/config';
import type { MetricsFrame, SampleTrace } from '../../core/metrics';
import { metricsJson } from './export';

const frame = (step: number, trace: SampleTrace[]): MetricsFrame => ({ step, version: step, scalars: { 'grad/norm': 1 }, series: {}, ratioEdges: [], perf: {}, changes: {}, trace }) as unknown as MetricsFrame;

describe('metricsJson', () => {
  it('leaves out empty traces and keeps real ones', () => {
    const t = { session: 0 } as SampleTrace;
    const doc = JSON.parse(metricsJson([frame(1, []), frame(2, [t])], defaultConfig(), [])) as { frames: Record<string, unknown>[] };
    expect('trace' in doc.frames[0]).toBe(false);
    expect(doc.frames[1].trace).toEqual([t]);
    expect(doc.frames[0].scalars).toEqual({ 'grad/norm': 1 });
  });
});
