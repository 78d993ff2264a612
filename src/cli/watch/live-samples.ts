// `npm run watch --port`: the followed run's samples for the page's rollout viewer. Each measured
// step's per-sample lines (the ones --samples-out writes) are indexed as a few numbers
// (src/core/import/browse/), the text read from the followed folder when the page asks
// (serve.ts, /live/samples). Steps a resumed watch does not read again (already in --out) are not
// indexed.
import { RunSamples, SampleTextReader, followedFiles, proposeForBehavior } from '../../core/import/browse/index';
import { compileGate } from '../../core/gates/index';
import { titlesOf, type DiscoverySnapshot, type FormatId, type SampleRowsSink } from '../../core/import/index';
import { openParquet } from '../../io/hyparquet';
import { nodeRegexEngine } from '../../io/regex/node';
import { nodeFolder } from './node-fs';
import type { SampleEndpoint } from './serve';

export interface LiveSamples {
  endpoint: SampleEndpoint;
  sink: SampleRowsSink;
}

/** `discovered`: the follow's clusters as last saved (their titles name the discovered states and behaviors in the facets). */
export function liveSamples(dir: string, format: FormatId, gate: string | undefined, discovered: () => DiscoverySnapshot | null): LiveSamples {
  const reader = new SampleTextReader(format, followedFiles(nodeFolder(dir), () => performance.now()), openParquet);
  const run = new RunSamples({ read: (file, index) => reader.read(file, index), titles: () => titlesOf(discovered()) });
  return { endpoint: { facets: () => run.browser.facets(), query: (q) => run.browser.query(q), propose: (b, name) => proposeForBehavior(run, b, name, nodeRegexEngine()) }, sink: run.sink(gate ? compileGate(gate) : null) };
}

/** One sink that hands each step's lines to every sink given (--samples-out and the page's viewer); none given: none. */
export function bothSinks(...sinks: (SampleRowsSink | undefined)[]): SampleRowsSink | undefined {
  const all = sinks.filter((s): s is SampleRowsSink => !!s);
  if (all.length <= 1) return all[0];
  if (all.some((s) => s.root !== all[0].root)) throw new Error('sample sinks with different roots');
  return { root: all[0].root, step: (step, rows) => all.forEach((s) => s.step(step, rows)) };
}
