// Seeded corpora written as trainers write them, with a per-sample truth, for measuring behavior
// and state discovery (src/core/import/discover/) beyond the lab-like style of discover-corpus.ts:
//   reasoning     a verl dump of a reasoning model's GRPO run (discover-styles/reasoning.ts)
//   agent         OpenClaw-RL record + PRM files of multi-turn agent sessions (discover-styles/agent.ts)
//   multilingual  short answers in Chinese, Russian, Arabic, Hindi and English, generic JSONL (discover-styles/multilingual.ts)
// Each truth's `sample` is what the lab's import reads from the written files (discover-styles/common.ts).
import { agentCorpus } from './discover-styles/agent';
import { multilingualCorpus } from './discover-styles/multilingual';
import { reasoningCorpus } from './discover-styles/reasoning';
import type { StyleOptions, StyledCorpus } from './discover-styles/common';

export type { StyleOptions, StyledCorpus, StyledTruth } from './discover-styles/common';

export const STYLES = ['reasoning', 'agent', 'multilingual'] as const;
export type Style = (typeof STYLES)[number];

export function makeStyledCorpus(style: Style, o: StyleOptions): Promise<StyledCorpus> {
  if (style === 'reasoning') return reasoningCorpus(o);
  if (style === 'agent') return agentCorpus(o);
  if (style === 'multilingual') return multilingualCorpus(o);
  throw new Error(`unknown corpus style ${String(style)}; expected one of ${STYLES.join(', ')}`);
}
