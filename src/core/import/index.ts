// Public surface of the log import (docs/import.md).
export * from './types';
export * from './rules';
export * from './analyze';
export { importSamples, ImportError, type ImportOptions, type ImportResult, type ImportFileSummary } from './pipeline';
export { EXPECTED, FORMAT_LABELS } from './detect';
export { TOKEN_CAP, type TokenEntropyKind } from './measure';
export { memorySource } from './sources';
export type { RegexEngine, RuleRegex, RuleMatch } from './regex';
