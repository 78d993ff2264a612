// Whether a proposed rule's figures (propose.ts) can be taken as they are: where its matches among
// the other behaviors fall, and whether the behavior it comes from looks mixed. A rule scored only
// against its behavior's samples misleads when discovery split one frame over several behaviors
// (the rule matches most of another one too: its precision against this behavior alone undercounts,
// e.g. 0.24 for a rule right every time) or put two together (the rule misses a group of its samples
// that share a phrase of their own, or its alternatives tell apart groups that differ in more than
// those words). Each finding is said in words a person reads, the same in the CLI and the page.
import { candidateHits, phraseCandidates, type Candidate, type Hits, type SampleTexts } from './rule-candidates';

/** A sample of another behavior, with the behavior the lab measured it as (when known; not the log's own label). */
export type OtherSample = SampleTexts & { measuredAs?: string };

/** The rule's matches in one other behavior, of that behavior's samples read. */
export interface Elsewhere {
  behavior: string;
  matched: number;
  read: number;
}

export interface MixReport {
  /** The other behaviors the rule matches samples of, most matched first. */
  elsewhere: Elsewhere[];
  /** The behaviors the rule matches most of (at least half of those read), and its precision with them counted as this behavior. */
  alike: { behaviors: string[]; precision: number } | null;
  warnings: string[];
}

export interface MixInput {
  own: readonly SampleTexts[];
  ownMatched: Uint8Array;
  others: readonly OtherSample[];
  othersMatched: Uint8Array;
  /** How many of the run's samples one sample read of the behavior, and of the others, stands for. */
  wOwn: number;
  wOther: number;
  precision: number;
  /** The rule's first clause: each alternative as it reads, its regex, and its matches in the behavior's samples. */
  alternatives: readonly { text: string; regex: string; hits: Hits }[];
  pause: () => Promise<void>;
}

/** Fewest samples read of another behavior for "most of it" to mean something. */
const MIN_READ = 3;
/** The samples a rule misses are worth a word when they are at least this share of the behavior's (and MIN_READ). */
const MISSED_SHARE = 0.15;
/** Groups told apart by the rule's alternatives: each at least this share of the behavior's samples and GROUP_MIN (a few samples differ by topic alone). */
const GROUP_SHARE = 0.1;
const GROUP_MIN = 8;

const fixed = (x: number) => x.toFixed(2);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function elsewhereOf(others: readonly OtherSample[], matched: Uint8Array): Elsewhere[] {
  const by = new Map<string, Elsewhere>();
  others.forEach((s, k) => {
    if (s.measuredAs === undefined) return;
    const e = by.get(s.measuredAs) ?? { behavior: s.measuredAs, matched: 0, read: 0 };
    by.set(s.measuredAs, e);
    e.read++;
    e.matched += matched[k];
  });
  return [...by.values()].filter((e) => e.matched > 0).sort((a, b) => b.matched - a.matched || b.matched / b.read - a.matched / a.read || (a.behavior < b.behavior ? -1 : 1));
}

function alikeOf(x: MixInput, elsewhere: readonly Elsewhere[]): MixReport['alike'] {
  const most = elsewhere.filter((e) => e.read >= MIN_READ && e.matched / e.read >= 0.5);
  if (!most.length) return null;
  const tp = x.ownMatched.reduce((a, b) => a + b, 0) * x.wOwn;
  const fp = x.othersMatched.reduce((a, b) => a + b, 0) * x.wOther;
  const alike = most.reduce((a, e) => a + e.matched, 0) * x.wOther;
  return { behaviors: most.map((e) => e.behavior), precision: (tp + alike) / (tp + fp) };
}

const pick = <T>(xs: readonly T[], keep: (k: number) => boolean) => xs.filter((_, k) => keep(k));
const share = (h: Hits, from: number, to: number) => {
  let n = 0;
  for (let k = from; k < to; k++) if (h.firstEnd[k] >= 0) n++;
  return to > from ? n / (to - from) : 0;
};

/** The phrase most typical of `a` against `b` (in at least `inA` of a, at most `inB` of b), not one of `besides`; null when none. */
async function typicalPhrase(a: readonly SampleTexts[], b: readonly SampleTexts[], inA: number, inB: number, besides: readonly string[], pause: () => Promise<void>): Promise<Candidate | null> {
  const cands = (await phraseCandidates(a, b, 12, pause, inA)).filter((c) => !besides.some((t) => overlaps(c.text, t)));
  const texts = [...a, ...b].map((s) => s.response);
  for (const c of cands) {
    const h = await candidateHits(c, texts, pause);
    if (share(h, 0, a.length) >= inA && share(h, a.length, texts.length) <= inB) return c;
  }
  return null;
}

/** Two phrases (as they read, quoted) share words: one holds the other, or a word of three letters or more. */
function overlaps(a: string, b: string): boolean {
  const inner = (t: string) => t.replace(/^"|"$/g, '').toLowerCase();
  const [x, y] = [inner(a), inner(b)];
  if (x.includes(y) || y.includes(x)) return true;
  const words = (t: string) => t.split(/[^\p{L}\p{M}\p{N}]+/u).filter((w) => w.length >= 3);
  const ys = new Set(words(y));
  return words(x).some((w) => ys.has(w));
}

/** The samples the rule misses, when they are many and share a phrase the matched ones lack. */
async function missedGroup(x: MixInput, recall: number): Promise<string | null> {
  const missed = pick(x.own, (k) => !x.ownMatched[k]);
  if (missed.length < Math.max(MIN_READ, MISSED_SHARE * x.own.length)) return null;
  const hit = pick(x.own, (k) => !!x.ownMatched[k]);
  const c = await typicalPhrase(missed, hit, 0.5, 0.1, [], x.pause);
  const misses = `The rule misses ${missed.length} of the behavior's ${x.own.length} samples read (recall ${fixed(recall)})`;
  if (c) return `${misses}, and most of those share ${c.text}, which the ones it matches lack: the behavior may be two ways of answering put together by discovery (propose a rule for each), or the rule should also look for that.`;
  return recall < 0.8 ? `${misses}: nothing it could look for is common to them, so it names only part of the behavior.` : null;
}

/** An alternative of the rule that holds a group of the samples, the other alternatives the rest, groups that differ in more than those words. */
async function alternativeGroups(x: MixInput): Promise<string | null> {
  const n = x.own.length;
  const min = Math.max(GROUP_MIN, GROUP_SHARE * n);
  const has = (i: number, k: number) => x.alternatives[i].hits.firstEnd[k] >= 0;
  const besides = x.alternatives.map((a) => a.text);
  // what else the groups say: the alternatives' own words taken out (of phrases found in the same samples, one is kept: it would be theirs)
  const cut = new RegExp(x.alternatives.map((alt) => alt.regex).join('|'), 'gi');
  for (let i = 0; i < x.alternatives.length && x.alternatives.length > 1; i++) {
    const a: number[] = [];
    const b: number[] = [];
    for (let k = 0; k < n; k++) {
      const other = x.alternatives.some((_, j) => j !== i && has(j, k));
      if (has(i, k) && !other) a.push(k);
      else if (other && !has(i, k)) b.push(k);
    }
    if (a.length < min || b.length < min) continue;
    const without = (k: number) => ({ prompt: x.own[k].prompt, response: x.own[k].response.replace(cut, ' ') });
    const [sa, sb] = [a.map(without), b.map(without)];
    const pa = await typicalPhrase(sa, sb, 0.7, 0.1, besides, x.pause);
    const pb = pa && (await typicalPhrase(sb, sa, 0.7, 0.1, besides, x.pause));
    if (pa && pb) {
      const rest = besides.filter((_, j) => j !== i).join(' or ');
      return `The behavior's samples split into groups the rule tells apart: ${a.length} have ${x.alternatives[i].text}, ${b.length} have ${rest} instead, and they differ in more than that (${pa.text} in the first, ${pb.text} in the second): discovery may have put two behaviors together (propose a rule for each).`;
    }
  }
  return null;
}

/** Where the rule's other matches fall and what looks mixed, in words. */
export async function mixReport(x: MixInput, recall: number): Promise<MixReport> {
  const elsewhere = elsewhereOf(x.others, x.othersMatched);
  const alike = alikeOf(x, elsewhere);
  const warnings: string[] = [];
  if (alike) {
    const most = elsewhere.filter((e) => alike.behaviors.includes(e.behavior)).map((e) => `${e.behavior} (${e.matched} of its ${e.read} samples read)`);
    warnings.push(
      `The rule also matches most of ${most.join(' and ')}: either discovery split one behavior over ${alike.behaviors.length === 1 ? 'that one' : 'those'} and this one, or what the rule looks for is common to both. ` +
        `Counted as one behavior, the rule's precision is ${fixed(alike.precision)}; against this behavior alone it is ${fixed(x.precision)}.`,
    );
  }
  const missed = await missedGroup(x, recall);
  if (missed) warnings.push(missed);
  const groups = await alternativeGroups(x);
  if (groups) warnings.push(groups);
  return { elsewhere, alike, warnings };
}

/** "Its other matches: 34 in b-x (of its 40 read), 3 in b-y (of its 200 read)"; empty when there are none (or the others' behaviors are not known). */
export function elsewhereText(elsewhere: readonly Elsewhere[], max = 5): string {
  if (!elsewhere.length) return '';
  const shown = elsewhere.slice(0, max).map((e) => `${e.matched} in ${e.behavior} (of its ${e.read} read)`);
  const rest = elsewhere.slice(max);
  if (rest.length) shown.push(`${rest.reduce((a, e) => a + e.matched, 0)} in ${plural(rest.length, 'other behavior')}`);
  return `Its other matches: ${shown.join(', ')}`;
}
