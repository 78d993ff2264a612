// From a discovered behavior of a run to a rule (discover/propose.ts) with the run's own samples read
// back: a few hundred of the behavior and of the others, evenly spread over the run, the counts
// weighted by how many each has in the whole run. One path for every place a rule is proposed: the
// import worker (a measured import, a folder followed in the page) and `npm run watch --port` (the
// page it serves asks /live/propose).
import { proposeRule, type RuleProposal } from '../discover/propose';
import type { RegexEngine } from '../rules/regex';
import type { RunSamples } from './browse';

/** The path of the served page's proposal (relative to the page), `?behavior=B&name=N`. */
export const LIVE_PROPOSE = 'live/propose';

/**
 * The header the page sends with its proposal request: a page of another site cannot send it (a
 * custom header needs a CORS preflight, which the watch refuses; a no-cors request cannot carry
 * one), so no other site can make the watch start a proposal's work.
 */
export const LIVE_PROPOSE_HEADER = 'X-Invlab-Propose';

/** Samples read back for a proposal: at most these many of the behavior and of the others. */
export const PROPOSE_OWN = 400;
export const PROPOSE_OTHERS = 1600;

/** A proposed rule and how many samples of the behavior and of the others the run has (the proposal counts those read back). */
export interface HeldProposal {
  proposal: RuleProposal;
  inRun: { own: number; others: number };
}

/** A rule for the behavior `behavior` of `run`, labelled `name`, from its samples and the others' read back; `regex`: the import's engine, which counts the rule's matches. */
export async function proposeForBehavior(run: RunSamples, behavior: string, name: string, regex: RegexEngine): Promise<HeldProposal> {
  const own = run.index.select({ behavior }).length;
  if (!own) throw new Error(`the run has no sample of the behavior ${JSON.stringify(behavior)}`);
  const inRun = { own, others: run.index.size - own };
  const [mine, rest] = [await run.browser.texts({ behavior }, PROPOSE_OWN), await run.browser.texts({ behavior }, PROPOSE_OTHERS, true)];
  return { proposal: await proposeRule(mine, rest, { name, totals: inRun, regex }), inRun };
}
