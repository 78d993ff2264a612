// Public surface of the log import (docs/import.md).
export * from './types';
export * from './rules/rules';
export * from './analyze';
export { importSamples, ImportError, type ImportOptions, type ImportResult, type ImportFileSummary } from './read/pipeline';
export { EXPECTED, FORMAT_LABELS } from './formats/detect';
export { TOKEN_CAP, type TokenEntropyKind } from './measure/measure';
export { memorySource } from './sources';
export type { RegexEngine, RuleRegex, RuleMatch } from './rules/regex';
export * from './rules/reward';
export { RunFollower, type FollowOptions, type FollowEvents, type FileStamp, type FollowProgress } from './follow/follower';
export type { FollowFs, FollowEntry } from './follow/fs';
export { frameLine, frameLineStep, frameOfLine } from './follow/frame-line';
export { BehaviorDiscoverer, StateDiscoverer, UNCLASSIFIED, type DiscoveredBehavior, type Explanation, type DiscoverSnapshot } from './discover/discoverer';
export { Discovery, previewLabels, type DiscoverySnapshot, type Labeled } from './discover/step-labels';
export { proposeRule, proposalText, type ProposeOptions, type RuleProposal } from './discover/propose';
export { withBehaviorRule } from './rules/rule-file';
export { type SampleRowsSink } from './measure/measure';
export * from './samples/record';
