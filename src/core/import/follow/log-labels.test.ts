// A followed run whose behaviors are the log's own labels (`useLogLabel`): a label first seen at a
// later step is named in the frames already written (replaced, with 0 for it), so the followed
// frames equal the one-shot import at the end — also across a restart (the labels of the frames
// file are known again).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeRegexEngine } from '../../../io/regex/node';
import { EXAMPLES } from '../../../../tests/support/example-import';
import { MemoryFolder } from '../../../../tests/support/writer-sim';
import { measureLogs, type MeasureSpec } from '../analyze';
import { memorySource } from '../sources';
import { frameLine, frameOfLine } from './frame-line';
import { RunFollower } from './follower';

const SPEC: MeasureSpec = { states: { kind: 'field', field: 'state' }, behaviors: { rules: [], fallback: 'unlabeled', useLogLabel: true }, eps: 0.05 };
// the shipped generic log, with labels that first appear at steps 8 and 13 (sorted before and among the others)
const LOG = readFileSync(join(EXAMPLES, 'generic.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as { step: number; behavior: string })
  .map((o) => ({ ...o, behavior: o.step >= 8 && o.behavior === 'verify' ? 'aa-late' : o.step >= 13 && o.behavior === 'direct' ? 'e-late' : o.behavior }))
  .map((o) => `${JSON.stringify(o)}\n`);

async function followed(restartAt: number | null): Promise<{ lines: string[]; replaced: number }> {
  const d = new MemoryFolder();
  const lines = new Map<number, string>();
  let replaced = 0;
  const start = () =>
    new RunFollower(d, { format: 'jsonl', spec: SPEC, regex: nodeRegexEngine(), written: lines.keys(), writtenFrames: [...lines.values()].map((l) => frameOfLine(l)!) }, {
      frame: (f, r) => {
        lines.set(f.step, frameLine(f));
        if (r) replaced++;
      },
      notice: () => undefined,
    });
  let f = start();
  for (let i = 0; i < LOG.length; i += 20) {
    d.append('log.jsonl', new TextEncoder().encode(LOG.slice(i, i + 20).join('')));
    await f.poll();
    if (restartAt !== null && i === restartAt) f = start();
  }
  await f.finish();
  return { lines: [...lines].sort((a, b) => a[0] - b[0]).map(([, l]) => l), replaced };
}

describe("following a run labelled by the log's own behavior field", () => {
  it('a label seen later is named in the frames already written; at the end they equal the one-shot import', async () => {
    const want = (await measureLogs([memorySource('log.jsonl', LOG.join(''))], SPEC, { format: 'jsonl', regex: nodeRegexEngine() })).frames.map(frameLine);
    expect(want[0]).toContain('aa-late');
    const got = await followed(null);
    expect(got.lines).toEqual(want);
    expect(got.replaced).toBeGreaterThan(0);
    for (const at of [100, 300, 500, 900]) expect((await followed(at)).lines).toEqual(want);
  }, 60_000);
});
