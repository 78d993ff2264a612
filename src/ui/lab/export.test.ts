import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../core/config';
import type { MetricsFrame, SampleTrace } from '../../core/metrics';
import { framesToCsv } from '../../core/run/frames';
import { csvRows, metricsJson } from './export';

const frame = (step: number, trace: SampleTrace[]): MetricsFrame => ({ step, version: step, scalars: { 'grad/norm': 1 }, series: {}, ratioEdges: [], perf: {}, changes: {}, trace }) as unknown as MetricsFrame;

describe('metricsJson', () => {
  it('leaves out empty traces and keeps real ones', () => {
    const t = { session: 0 } as SampleTrace;
    const doc = JSON.parse(metricsJson([frame(1, []), frame(2, [t])], defaultConfig(), [])) as { frames: Record<string, unknown>[] };
    expect('trace' in doc.frames[0]).toBe(false);
    expect(doc.frames[1].trace).toEqual([t]);
    expect(doc.frames[0].scalars).toEqual({ 'grad/norm': 1 });
  });

  it('includes step 0 (the base the plots start from) in both exports, and leaves it out for a fork', () => {
    const base = { ...frame(0, []), scalars: { 'support/token_entropy': 2.5 } } as unknown as MetricsFrame;
    const doc = JSON.parse(metricsJson([frame(1, [])], defaultConfig(), [], base)) as { start?: { step: number; scalars: Record<string, number> } };
    expect(doc.start).toEqual({ step: 0, scalars: { 'support/token_entropy': 2.5 } });
    const csv = framesToCsv(csvRows([frame(1, [])], base)).trim().split('\n');
    expect(csv[0].split(',')[0]).toBe('step');
    expect(csv.slice(1).map((r) => r.split(',')[0])).toEqual(['0', '1']);
    expect('start' in (JSON.parse(metricsJson([frame(1, [])], defaultConfig(), [], null)) as object)).toBe(false);
  });
});
