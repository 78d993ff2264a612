import { describe, expect, it } from 'vitest';
import { filesToKeep, readKeptImport } from './kept-import';

const good = { tab: 'tab-1', open: true, format: 'verl', openclawBatch: 16, eps: 0.05, statesSpec: { kind: 'field', field: 'data_source', missing: 'math' }, behaviorsText: '{"rules": [], "fallback": "x"}', gateText: '', rewardText: 'acc', rewardThreshold: '0.5', measured: true };

describe('the kept import', () => {
  it('reads back what was kept, the states spec with its `missing`', () => {
    expect(readKeptImport(JSON.stringify(good))).toEqual(good);
  });

  it('anything unreadable is no import (never a crash on reload)', () => {
    for (const bad of ['', 'not json', '[]', '{}', JSON.stringify({ ...good, tab: '../x' }), JSON.stringify({ ...good, format: 'csv' }), JSON.stringify({ ...good, eps: 3 }), JSON.stringify({ ...good, openclawBatch: 0 }), JSON.stringify({ ...good, statesSpec: { kind: 'nope' } }), JSON.stringify({ ...good, behaviorsText: 7 })]) {
      expect(readKeptImport(bad), bad).toBeNull();
    }
  });

  it('keeps the files up to the cap, none past it (the note then says so)', () => {
    const f = (n: number) => new File([new Uint8Array(n)], `${n}.jsonl`);
    expect(filesToKeep([f(10), f(20)], 30).files.map((x) => x.name)).toEqual(['10.jsonl', '20.jsonl']);
    expect(filesToKeep([f(10), f(21)], 30)).toEqual({ files: [], skipped: 2, skippedBytes: 31 });
  });
});
