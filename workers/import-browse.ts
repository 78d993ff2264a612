// The import worker's samples of the run measured last (or followed now): each sample's place and
// labels indexed as the measure reads it (src/core/import/browse/), its text read back from the
// picked files (File.slice) or the followed folder when the page shows it.
import { RunSamples, SampleTextReader, explainLabel, followedFiles, proposeForBehavior, type HeldProposal, type OpenRunFile, type SampleFacets, type SamplePage, type SampleQuery } from '../src/core/import/browse/index';
import type { FollowFs } from '../src/core/import/index';
import type { FormatId } from '../src/core/import/types';
import type { RegexEngine } from '../src/core/import/rules/regex';
import type { Discovery, DiscoverySnapshot } from '../src/core/import/discover/step-labels';
import { titlesOf, type LabelTitles } from '../src/core/import/titles/titles';
import { openParquet } from '../src/io/hyparquet';

export type { HeldProposal };

/** The picked files by the name the import gives them (fileSource: the folder path when picked as a folder). */
export function pickedFiles(files: readonly File[]): OpenRunFile {
  const byName = new Map(files.map((f) => [f.webkitRelativePath || f.name, f]));
  return async (name) => {
    const f = byName.get(name);
    if (!f) throw new Error(`${name}: not among the picked files`);
    return { size: f.size, slice: (a, b) => f.slice(a, b).arrayBuffer() };
  };
}

/**
 * The run's samples; `format` is asked when the first sample is read back (a measure tells it at its
 * end), `discovery` when a discovered label is explained, `titles` when the facets are.
 */
export function runSamples(format: () => FormatId, open: OpenRunFile, discovery: () => Discovery | null = () => null, titles: () => LabelTitles = () => titlesOf(discovery()?.save())): RunSamples {
  let reader: SampleTextReader | null = null;
  return new RunSamples({
    read: (file, index) => (reader ??= new SampleTextReader(format(), open, openParquet)).read(file, index),
    explain: (e, t) => explainLabel(discovery(), e, t),
    titles,
  });
}

/** A followed run's samples: the titles of its discovery as last saved by the follower (none yet: the names). */
export const followedRunSamples = (format: FormatId, fs: FollowFs, saved: () => DiscoverySnapshot | null): RunSamples => runSamples(() => format, followedFiles(fs, () => performance.now()), () => null, () => titlesOf(saved()));

/** What the page asks of the samples held (none yet: no facets, an empty page). */
export class SamplesHeld {
  current: RunSamples | null = null;

  facets(): SampleFacets | null {
    return this.current?.browser.facets() ?? null;
  }

  query(q: SampleQuery): Promise<SamplePage> {
    if (!this.current) return Promise.resolve({ total: 0, page: 0, pageSize: q.pageSize ?? 0, rows: [] });
    return this.current.browser.query(q);
  }

  /** A rule for the behavior `behavior` of the run held, labelled `name` (src/core/import/browse/propose-run.ts), its matches counted by `regex`. */
  propose(behavior: string, name: string, regex: RegexEngine): Promise<HeldProposal> {
    if (!this.current) return Promise.reject(new Error('no run measured yet: measure the import first'));
    return proposeForBehavior(this.current, behavior, name, regex);
  }
}
