/**
 * Where the rollout viewer gets its samples: the import worker (a measured import or a folder
 * followed in this page, text read back from the picked files), the run `npm run watch --port`
 * follows (its read-only sample endpoint on 127.0.0.1), or the lab's own run (the traced samples its
 * steps kept). All answer the same query (src/core/import/browse/browse.ts).
 */
import { LIVE_PROPOSE, LIVE_PROPOSE_HEADER, LIVE_SAMPLES, LIVE_SAMPLE_FACETS, RunSamples, queryParams, type HeldProposal, type SampleFacets, type SamplePage, type SampleQuery } from '../../core/import/browse/index';
import { decisionText } from '../../core/import/browse/index';
import type { SampleTrace } from '../../core/metrics';
import type { SampleText } from '../../core/import/browse/index';
import type { TracedStep } from '../gates/traced';

export interface SampleSource {
  /** In words, for the viewer's heading ("the imported run", "the run npm run watch follows"…). */
  label: string;
  /** The text is read back from the run's files (false: held in the page, the lab's own traces). */
  files: boolean;
  facets(): Promise<SampleFacets | null>;
  query(q: SampleQuery): Promise<SamplePage>;
}

/** A GET of the watch that serves `streamUrl` (…/live/events): its JSON, or an error saying what the watch answered. */
function servedGet(streamUrl: string, fetcher: typeof fetch) {
  const url = (path: string) => new URL(`/${path}`, streamUrl);
  async function get<T>(u: URL, headers: Record<string, string> = {}): Promise<T> {
    const r = await fetcher(u, { headers: { Accept: 'application/json', ...headers } });
    if (!r.ok) throw new Error(`the watch answered ${r.status}: ${(await r.text()).trim().slice(0, 200)}`);
    return (await r.json()) as T;
  }
  return { url, get };
}

/** A rule proposed by the watch at `streamUrl` for its run's discovered behavior (the page's "Name this behavior"). */
export function servedPropose(streamUrl: string, fetcher: typeof fetch = fetch): (behavior: string, name: string) => Promise<HeldProposal> {
  const { url, get } = servedGet(streamUrl, fetcher);
  return (behavior, name) => {
    const u = url(LIVE_PROPOSE);
    u.search = new URLSearchParams({ behavior, name }).toString();
    return get<HeldProposal>(u, { [LIVE_PROPOSE_HEADER]: '1' });
  };
}

/** The samples behind `npm run watch --port`'s stream at `streamUrl` (…/live/events). */
export function servedSource(streamUrl: string, fetcher: typeof fetch = fetch): SampleSource {
  const { url, get } = servedGet(streamUrl, fetcher);
  return {
    label: 'the run npm run watch follows',
    files: true,
    facets: () => get<SampleFacets | null>(url(LIVE_SAMPLE_FACETS)),
    query: (q) => {
      const u = url(LIVE_SAMPLES);
      u.search = queryParams(q).toString();
      return get<SamplePage>(u);
    },
  };
}

/** One step's traced samples, as the run feed keeps them (run-feed.ts). */
export type TracedSamples = TracedStep<SampleTrace>;

/** The lab's own run: the traced samples of the steps kept (each trace has its gate fields and the deciding rule). */
export function traceSource(steps: readonly TracedSamples[]): SampleSource {
  const texts: SampleText[] = [];
  const run = new RunSamples({ read: async (_file, index) => texts[index] });
  for (const s of steps) {
    for (const t of s.records) {
      run.index.add({ step: s.step, file: 'lab run', index: texts.length, state: t.state, behavior: t.behavior, reward: t.reward, rule: t.ruleName, decision: decisionText(t) });
      texts.push({ prompt: `state ${t.state} (session ${t.session}, turn ${t.turn})`, response: t.response, toolCalls: [], fields: traceFields(t) });
    }
  }
  return { label: "the lab's run (the traced samples of its recent steps)", files: false, facets: async () => run.browser.facets(), query: (q) => run.browser.query(q) };
}

/** What a trace adds to the fields the gate read: the judge's votes and score, the hint, the advantage. */
function traceFields(t: SampleTrace): SampleText['fields'] {
  const f: SampleText['fields'] = { ...(t.fields as unknown as SampleText['fields']) };
  f.votes = t.votes.join(' ');
  f.score = t.score;
  f.hint = t.hint;
  f.advantage_mean = t.advMean;
  return f;
}
