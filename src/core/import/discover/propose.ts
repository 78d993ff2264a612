// From a discovered behavior to a rule: given samples of one behavior and of the others, propose a
// behavior rule (a `responseRegex` in the rule files' flavor, parsed by parseBehaviorRuleSet) built
// from what sets the behavior apart — its distinctive phrases and shape (rule-candidates.ts) — and
// say how many of its samples the rule matches and how many of the others it also matches.
//
// The rule is one or two clauses, each an alternation of candidates, the second after the first
// (`(?i)(?:A|B)[\s\S]*(?:C|D)`: an opening and a closing of the frame). It is chosen greedily by
// F1 on the samples: alternatives are added to a clause while F1 grows, a second clause is tried in
// either order, then alternatives that add nothing are dropped. Candidate matches are read once
// (where each candidate's first match ends, where its last match starts), so a clause's and a pair
// of clauses' matches follow without running a regex; the counts reported come from running the
// rule itself on the import's regex engine (RE2 in linear time, JavaScript's RegExp within the
// import's budget where the text needs it), as the import will run it. Deterministic. Beside the
// figures: where the rule's other matches fall and whether the behavior looks split or mixed
// (propose-mix.ts), where the others come with the behavior each was measured as.
//
// Every scan over the samples' text is linear (the candidates are made so: rule-candidates.ts) or
// on the engine's budget (the rule's run), and the work pauses between samples (`pause`), so that a
// proposal over megabytes of text leaves what shares its thread (a follower, a server) going.
import { systemClock, slicer } from '../../run/clock';
import { compileRuleRegex, type RegexEngine } from '../rules/regex';
import { regexSyntaxError } from '../rules/regex-syntax';
import { safeName, type BehaviorRule } from '../rules/rules';
import { candidateHits, phraseCandidates, shapeCandidates, type Hits, type SampleTexts } from './rule-candidates';
import { UNCLASSIFIED } from './discoverer';
import { mixReport, type Elsewhere, type MixReport, type OtherSample } from './propose-mix';

export type { Elsewhere, OtherSample } from './propose-mix';

export interface ProposeOptions {
  /** The rule's label: the name the person gives the behavior. */
  name: string;
  /**
   * How many samples the behavior and the others have in the whole run (the samples given may be a
   * sample of each): matches are weighted by these when F1 is computed. Default: the samples given.
   */
  totals?: { own: number; others: number };
  /** Most candidates searched (default 48) and alternatives in a clause (default 6). */
  maxCandidates?: number;
  maxAlternatives?: number;
  /** The import's regex engine: the rule proposed is run on the samples by it, as the import would. */
  regex: RegexEngine;
  /** Awaited between samples: gives the thread back now and then (default: every 20 ms, a timer's turn). */
  pause?: () => Promise<void>;
}

/** How long the work runs before it gives its thread back (by default). */
export const PROPOSE_SLICE_MS = 20;

export interface RuleProposal {
  rule: BehaviorRule & { responseRegex: string };
  /** The behavior's samples the rule matches, of `total` given. */
  matched: number;
  total: number;
  /** The other samples it also matches, of `othersTotal` given. */
  othersMatched: number;
  othersTotal: number;
  /** Precision, recall and F1 on the samples given (weighted by `totals`). */
  precision: number;
  recall: number;
  f1: number;
  /** What the rule looks for, in words: the clauses in order, each a list of alternatives. */
  looksFor: string[][];
  /** The other behaviors whose samples it matches (when the others' behaviors are given), most first. */
  elsewhere: Elsewhere[];
  /** Behaviors it matches most of, and its precision with them counted as this behavior (the behavior looks split). */
  alike: MixReport['alike'];
  /** Why the figures may mislead (the behavior looks split or mixed), in words; empty when nothing does. */
  warnings: string[];
}

type Clause = number[];

function validate(own: readonly SampleTexts[], others: readonly OtherSample[], o: ProposeOptions): void {
  const errs: string[] = [];
  if (typeof o?.name !== 'string' || !o.name.trim()) errs.push('name: expected a non-empty name for the behavior');
  else if (safeName(o.name) !== o.name) errs.push(`name: ${JSON.stringify(o.name)} is not usable in metric keys; try ${JSON.stringify(safeName(o.name))} (no white space, no "/", at most 48 characters)`);
  else if (o.name === UNCLASSIFIED) errs.push(`name: "${UNCLASSIFIED}" is the label of noise and of samples like no behavior; choose another`);
  const bad = (xs: readonly SampleTexts[]) => (Array.isArray(xs) ? xs.findIndex((s) => !s || typeof s.response !== 'string' || typeof s.prompt !== 'string') : 0);
  if (!Array.isArray(own) || !own.length) errs.push("samples: the behavior's samples are needed (none given)");
  else if (bad(own) >= 0) errs.push(`samples[${bad(own)}]: expected {prompt, response} texts`);
  if (!Array.isArray(others)) errs.push('others: expected a list of samples (it may be empty)');
  else if (bad(others) >= 0) errs.push(`others[${bad(others)}]: expected {prompt, response} texts`);
  else if (others.some((s) => s.measuredAs !== undefined && typeof s.measuredAs !== 'string')) errs.push(`others[${others.findIndex((s) => s.measuredAs !== undefined && typeof s.measuredAs !== 'string')}]: measuredAs: expected the name of a behavior`);
  const t = o?.totals;
  if (t !== undefined && !(Number.isFinite(t.own) && t.own >= 0 && Number.isFinite(t.others) && t.others >= 0)) errs.push('totals: expected non-negative counts {own, others}');
  if (errs.length) throw new Error(`propose a rule: ${errs.join('; ')}`);
}

/** Scores a match vector: own samples are the first `nOwn`; weights from the totals. */
class Scorer {
  constructor(
    readonly nOwn: number,
    readonly n: number,
    readonly wOwn: number,
    readonly wOther: number,
  ) {}
  counts(m: Uint8Array): { tp: number; fp: number } {
    let tp = 0;
    let fp = 0;
    for (let k = 0; k < this.n; k++) if (m[k]) k < this.nOwn ? tp++ : fp++;
    return { tp, fp };
  }
  f1(m: Uint8Array): number {
    const { tp, fp } = this.counts(m);
    const TP = tp * this.wOwn;
    const denom = 2 * TP + fp * this.wOther + (this.nOwn - tp) * this.wOwn;
    return denom > 0 ? (2 * TP) / denom : 0;
  }
}

/** Which samples a rule matches: one clause (any alternative), or two (one of the second starts where one of the first has ended). */
function matches(hits: readonly Hits[], clauses: readonly Clause[], n: number): Uint8Array {
  const out = new Uint8Array(n);
  const [a, b] = clauses;
  for (let k = 0; k < n; k++) {
    let end = -1; // where the first clause's earliest match ends
    for (const c of a) {
      const e = hits[c].firstEnd[k];
      if (e >= 0 && (end < 0 || e < end)) end = e;
    }
    if (end < 0) continue;
    out[k] = !b || b.some((c) => hits[c].lastStart[k] >= end) ? 1 : 0;
  }
  return out;
}

interface Found {
  clauses: Clause[];
  f: number;
}

/** Alternatives added to clause `at` while F1 grows (the best first; ties go to the earlier candidate). */
function grow(hits: readonly Hits[], s: Scorer, start: Found, at: number, maxAlt: number): Found {
  let cur = start;
  while (cur.clauses[at].length < maxAlt) {
    let best: Found | null = null;
    for (let c = 0; c < hits.length; c++) {
      if (cur.clauses.some((cl) => cl.includes(c))) continue;
      const clauses = cur.clauses.map((cl, i) => (i === at ? [...cl, c] : cl));
      const f = s.f1(matches(hits, clauses, s.n));
      if (!best || f > best.f) best = { clauses, f };
    }
    if (!best || best.f <= cur.f + 1e-9) return cur;
    cur = best;
  }
  return cur;
}

/** Alternatives whose removal costs nothing, dropped (the rule reads shorter). */
function prune(hits: readonly Hits[], s: Scorer, found: Found): Found {
  let cur = found;
  for (let at = 0; at < cur.clauses.length; at++) {
    for (let j = cur.clauses[at].length - 1; j >= 0 && cur.clauses[at].length > 1; j--) {
      const clauses = cur.clauses.map((cl, i) => (i === at ? cl.filter((_, k) => k !== j) : cl));
      const f = s.f1(matches(hits, clauses, s.n));
      if (f >= cur.f - 1e-9) cur = { clauses, f };
    }
  }
  return cur;
}

/** One clause grown from nothing; then a second clause before or after it, kept when it gains. */
function search(hits: readonly Hits[], s: Scorer, maxAlt: number): Found {
  const one = prune(hits, s, grow(hits, s, { clauses: [[]], f: 0 }, 0, maxAlt));
  if (!one.clauses[0].length) return one;
  let two: Found | null = null;
  for (let c = 0; c < hits.length; c++) {
    if (one.clauses[0].includes(c)) continue;
    for (const clauses of [[one.clauses[0], [c]], [[c], one.clauses[0]]]) {
      const f = s.f1(matches(hits, clauses, s.n));
      if (!two || f > two.f) two = { clauses, f };
    }
  }
  if (!two) return one;
  const fresh = two.clauses[0] === one.clauses[0] ? 1 : 0; // the clause just added
  two = grow(hits, s, two, fresh, maxAlt);
  two = prune(hits, s, grow(hits, s, two, 1 - fresh, maxAlt));
  return two.f > one.f + 0.01 ? two : one;
}

const group = (rs: string[]) => (rs.length === 1 ? rs[0] : `(?:${rs.join('|')})`);

/** A rule for the behavior whose samples are `own`, told apart from `others`; throws a clear Error on bad input or when nothing sets it apart. */
export async function proposeRule(own: readonly SampleTexts[], others: readonly OtherSample[], o: ProposeOptions): Promise<RuleProposal> {
  validate(own, others, o);
  const pause = o.pause ?? slicer(PROPOSE_SLICE_MS, systemClock);
  const cands = [...shapeCandidates(own.map((x) => x.response)), ...(await phraseCandidates(own, others, o.maxCandidates ?? 48, pause))];
  const texts = [...own, ...others].map((x) => x.response);
  const hits: Hits[] = [];
  for (const c of cands) hits.push(await candidateHits(c, texts, pause));
  const t = o.totals ?? { own: own.length, others: others.length };
  const scorer = new Scorer(own.length, texts.length, t.own / own.length, others.length ? t.others / others.length : 0);
  const found = search(hits, scorer, o.maxAlternatives ?? 6);
  if (found.f <= 0) throw new Error(`propose a rule: nothing in the responses of these ${own.length} samples sets them apart (no phrase or shape of theirs is missing from the others)`);
  const responseRegex = `(?i)${found.clauses.map((cl) => group(cl.map((c) => cands[c].regex))).join('[\\s\\S]*')}`;
  const err = regexSyntaxError(responseRegex);
  if (err) throw new Error(`propose a rule: the regex made is invalid (${err})`);
  const rule = compileRuleRegex(o.regex, responseRegex, '', `the rule proposed for ${o.name}`);
  const matching = async (xs: readonly SampleTexts[]) => {
    const m = new Uint8Array(xs.length);
    for (let k = 0; k < xs.length; k++) {
      m[k] = rule.find(xs[k].response) ? 1 : 0;
      await pause();
    }
    return m;
  };
  const ownMatched = await matching(own);
  const othersHit = await matching(others);
  const matched = ownMatched.reduce((a, b) => a + b, 0);
  const othersMatched = othersHit.reduce((a, b) => a + b, 0);
  const TP = matched * scorer.wOwn;
  const FP = othersMatched * scorer.wOther;
  const precision = TP + FP > 0 ? TP / (TP + FP) : 0;
  const recall = matched / own.length;
  const alternatives = found.clauses[0].map((c) => ({ text: cands[c].text, regex: cands[c].regex, hits: hits[c] }));
  const mix = await mixReport({ own, ownMatched, others, othersMatched: othersHit, wOwn: scorer.wOwn, wOther: scorer.wOther, precision, alternatives, pause }, recall);
  return {
    rule: { label: o.name, responseRegex },
    matched,
    total: own.length,
    othersMatched,
    othersTotal: others.length,
    precision,
    recall,
    f1: precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0,
    looksFor: found.clauses.map((cl) => cl.map((c) => cands[c].text)),
    ...mix,
  };
}

/** "matches 42 of its 50 samples and 3 of 400 others" (the page and the CLI say it the same way). */
export function proposalText(p: Pick<RuleProposal, 'matched' | 'total' | 'othersMatched' | 'othersTotal'>): string {
  return `matches ${p.matched} of its ${p.total} samples and ${p.othersMatched} of ${p.othersTotal} others`;
}
