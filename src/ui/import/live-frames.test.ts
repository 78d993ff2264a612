// A live run's frames: steps placed in order, a rewritten step replacing its frame, and the steps so
// far read as the one-shot import's result (the same states, behaviors and counts the views take).
import { describe, expect, it } from 'vitest';
import { describeReward } from '../../core/import/index';
import type { MetricsFrame } from '../../core/metrics';
import { importExample } from '../../../tests/support/example-import';
import { liveResult, placeFrame } from './live-frames';

const frame = (step: number, x = 0) => ({ step, version: step, scalars: { 'import/samples': x }, series: {}, ratioEdges: [], perf: {} }) as unknown as MetricsFrame;

describe('placeFrame', () => {
  it('keeps step order, inserting a late step in its place', () => {
    let fs: MetricsFrame[] = [];
    for (const s of [1, 2, 4, 3, 5]) fs = placeFrame(fs, frame(s));
    expect(fs.map((f) => f.step)).toEqual([1, 2, 3, 4, 5]);
  });
  it('replaces the frame of a step already held, never holding it twice', () => {
    let fs = [1, 2, 3].map((s) => frame(s, 1));
    fs = placeFrame(fs, frame(2, 7));
    expect(fs.map((f) => [f.step, f.scalars['import/samples']])).toEqual([[1, 1], [2, 7], [3, 1]]);
    fs = placeFrame(fs, frame(1, 9));
    expect(fs.map((f) => [f.step, f.scalars['import/samples']])).toEqual([[1, 9], [2, 7], [3, 1]]);
  });
});

describe('liveResult', () => {
  for (const format of ['verl', 'trl', 'openclaw'] as const)
    it(`${format}: the example's frames read as the one-shot import's result`, async () => {
      const want = await importExample(format);
      const got = liveResult({ source: 'test', format, eps: 0.05, reward: describeReward(undefined) }, want.frames, []);
      expect({ ...got, files: want.files, issues: want.issues, issuesTotal: want.issuesTotal }).toEqual(want);
    });
  it('counts the notices as issues, the total beyond those kept', () => {
    const r = liveResult({ source: 'test', format: 'verl', eps: 0.05, reward: '' }, [frame(1)], ['a', 'b'], 7);
    expect([r.issues.map((i) => i.message), r.issuesTotal]).toEqual([['a', 'b'], 7]);
  });
});
