// The rollout viewer's side of the import (docs/import.md "Samples"): every sample of a run kept as a
// few numbers (sample-index.ts), its text read back from the files when shown (sample-text.ts), and
// the query with filters, search and pages (browse.ts).
export { LineOffsets, lineText } from './line-offsets';
export { DECISIONS, SampleIndex, decisionText, type Decision, type SampleEntry, type SampleFacets, type SampleFilter } from './sample-index';
export type { BrowseFile } from './file-lines';
export { LIST_FRESH_MS, SampleTextReader, followedFiles, type OpenRunFile, type SampleText } from './sample-text';
export { LIVE_SAMPLES, LIVE_SAMPLE_FACETS, PAGE_SIZE, explainLabel, PAGE_SIZE_MAX, queryOfParams, queryParams, RunSamples, SampleBrowser, matchesSearch, searchWords, type BrowseDeps, type SampleLineLike, type SampleQuery, type SamplePage, type SampleView } from './browse';
export { LIVE_PROPOSE, LIVE_PROPOSE_HEADER, PROPOSE_OTHERS, PROPOSE_OWN, proposeForBehavior, type HeldProposal } from './propose-run';
