// Names a person reads for a discovered group, made from what sets it apart from the step's other
// samples: its typical opening, quoted in its own language, when that opening is distinctive, and
// its most distinctive shapes in words ("backtracks", "boxed answer", "calls lookup_order first").
// Never a pair of content words: those say what a response is about, not what it does. A name has
// two forms: the label (a metric key: no white space, no "/", at most 48 characters) and the title
// a page or a terminal shows. Names that would read alike are told apart in names-apart.ts.
import { UNSPACED, openingWords, segmentWords, segmentsOf } from './opening';
import type { StepTerms } from './step-terms';
import { isWordTerm } from './text';
import type { Doc } from './vectors';

/** Shape terms in words, and in the label's short form; length and line buckets are not shown. */
export const SHAPES: Record<string, [title: string, label: string]> = {
  code: ['code', 'code'],
  numbered: ['numbered list', 'numbered'],
  bullets: ['bullets', 'bullets'],
  enumerated: ['enumerated', 'enumerated'],
  heading: ['headings', 'headings'],
  'ends-question': ['asks back', 'asks-back'],
  asks: ['question', 'question'],
  exclaims: ['exclaims', 'exclaims'],
  tool: ['tool call', 'tool-call'],
  'multi-turn': ['reads tool results', 'multi-turn'],
  reasons: ['thinks', 'thinks'],
  bare: ['bare answer', 'bare'],
  backtracks: ['backtracks', 'backtracks'],
  'backtracks-often': ['backtracks often', 'backtracks-often'],
  cases: ['enumerates cases', 'cases'],
  'cases-often': ['many cases', 'cases-often'],
  verifies: ['verifies', 'verifies'],
  'verifies-often': ['verifies often', 'verifies-often'],
  'gives-up': ['gives up', 'gives-up'],
  'gives-up-often': ['gives up often', 'gives-up'],
  boxed: ['boxed answer', 'boxed'],
  'answer-tag': ['<answer> tag', 'answer-tag'],
  hashes: ['#### answer', 'hashes'],
  'final-answer': ['states a final answer', 'final-answer'],
};

/** Shapes whose absence sets a group apart, as `!` terms: what most of a step does and the group does not. */
const ABSENT: Record<string, [title: string, label: string]> = {
  reasons: ['no think', 'no-think'],
  'answer-tag': ['no <answer> tag', 'no-answer-tag'],
  tool: ['no tool call', 'no-tool-call'],
};

/** Every shape in words a title may hold, besides "calls X" and "calls X first" (what a name is made of: never content words). */
export const SHAPE_TITLES: readonly string[] = [...new Set([...Object.values(SHAPES), ...Object.values(ABSENT)].map(([title]) => title))];

/**
 * A length term (text.ts: log2 buckets) in words: 'len6' → '64–127 words', 'lines2' → '4–7 lines',
 * 'think5' → 'a think of 32–63 words' (its characters / 6), 'zh:len3' → '8–15 words (zh)' (a request's,
 * with its script); null for other terms.
 */
export function lengthText(term: string): string | null {
  const m = /^(?:([a-z]+):)?(len|lines|think)(\d)$/.exec(term);
  if (!m) return null;
  const b = Number(m[3]);
  const cap = m[2] === 'lines' ? 4 : 8;
  const range = b >= cap ? `${2 ** b}+` : `${2 ** b}–${2 ** (b + 1) - 1}`;
  if (m[2] === 'think') return `a think of ${range} words`;
  return `${range} ${m[2] === 'lines' ? 'lines' : 'words'}${m[1] ? ` (${m[1]})` : ''}`;
}

/** Length in words as a title says it ('64–127 words', '256+ words', 'under 16 words'). */
export const LENGTH_TITLE = /^(\d+(–\d+|\+)|under \d+) words$/;

/** A length bound as a title says it: 'len≥4' → '16+ words', 'len<4' → 'under 16 words' (apartTerms); null for other terms. */
export function boundText(term: string): string | null {
  const m = /^len([≥<])(\d)$/.exec(term);
  return m ? (m[1] === '≥' ? `${2 ** Number(m[2])}+ words` : `under ${2 ** Number(m[2])} words`) : null;
}

/** Shape terms in words ('tool:search' → 'calls search', '!reasons' → 'no think', 'len6' → '64–127 words'); null for terms not shown. */
export function shapeText(term: string): string | null {
  if (term.startsWith('!')) return ABSENT[term.slice(1)]?.[0] ?? null;
  if (term.startsWith('len')) return lengthText(term) ?? boundText(term);
  if (term.startsWith('tool:')) return `calls ${term.slice(5)}`;
  if (term.startsWith('first:')) return `calls ${term.slice(6)} first`;
  return SHAPES[term]?.[0] ?? null;
}

export function shapeLabel(term: string): string | null {
  if (term.startsWith('!')) return ABSENT[term.slice(1)]?.[1] ?? null;
  if (term.startsWith('len')) return lengthText(term)?.replace(/[–\s]+/g, '-') ?? null;
  if (term.startsWith('tool:')) return `${term.slice(5)}-call`;
  if (term.startsWith('first:')) return `${term.slice(6)}-first`;
  return SHAPES[term]?.[1] ?? null;
}

/** The share of `members` holding each term, and that of the step's other samples (`all` counts them with the members). */
function shares(members: readonly (readonly string[])[], all: ReadonlyMap<string, number>, n: number): Map<string, [number, number]> {
  const m = new Map<string, number>();
  for (const d of members) for (const t of d) m.set(t, (m.get(t) ?? 0) + 1);
  const out = new Map<string, [number, number]>();
  const others = Math.max(1, n - members.length);
  for (const [t, k] of m) out.set(t, [k / Math.max(1, members.length), ((all.get(t) ?? k) - k) / others]);
  return out;
}

/**
 * What most of the step's other samples do (half or more) and almost none of the members (a tenth
 * or fewer), of the shapes in ABSENT, most common first: "no think" names a group of bare grids in
 * a run of thinking answers better than an opening a third of them write.
 */
function lacking(members: readonly Doc[], step: StepTerms): string[] {
  const others = Math.max(1, step.n - members.length);
  return Object.keys(ABSENT)
    .map((t) => {
      const mine = members.filter((d) => d.shape.includes(t)).length;
      return { t, mine: mine / Math.max(1, members.length), others: ((step.shape.get(t) ?? 0) - mine) / others };
    })
    .filter((x) => x.others >= 0.5 && x.mine <= 0.1)
    .sort((a, b) => b.others - a.others || (a.t < b.t ? -1 : 1))
    .map((x) => `!${x.t}`);
}

/**
 * The terms most typical of the members against the step's other samples, best first: `members`
 * lists each member's distinct terms, `all` how many of the step's `n` samples (members included) hold each.
 */
export function distinctive(members: readonly (readonly string[])[], all: ReadonlyMap<string, number>, n: number, minShare: number, minLead = 0.1): string[] {
  return [...shares(members, all, n)]
    .filter(([, [s]]) => s >= minShare)
    .map(([t, [s, o]]) => ({ t, score: s - o }))
    .filter((x) => x.score > minLead)
    .sort((a, b) => b.score - a.score || (a.t < b.t ? -1 : 1))
    .map((x) => x.t);
}

export interface GroupName {
  /** The metric key ("wait-let-me-reconsider·backtracks·boxed"). */
  label: string;
  /** What a person reads ('"Wait, let me reconsider…" · backtracks · boxed answer'). */
  title: string;
}

/** An opening quoted, and its words as a label ("Wait, let me" → "wait-let-me"). */
export function openingLabel(opening: string): string {
  return opening
    .toLowerCase()
    .replace(/[\s/]+/g, '-')
    .replace(/[^\p{L}\p{M}\p{N}_#-]+/gu, '')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .split('-')
    .reduce((a, w) => (a && (a + '-' + w).length > 26 ? a : a ? `${a}-${w}` : w.slice(0, 26)), '');
}

/** The start of a text holding its first `n` letters as a key counts them (punctuation inside kept, a run of digits one letter: "好的，我来" for n = 4). */
function cutToLetters(text: string, n: number): string {
  let seen = 0;
  let out = '';
  let digit = false;
  for (const ch of text) {
    const more = digit && /\p{N}/u.test(ch);
    if (seen >= n && !more) break;
    out += ch;
    if (!more && !/[\s\p{P}]/u.test(ch)) seen++;
    digit = /\p{N}/u.test(ch);
  }
  return out;
}

/** The most common written form of an opening key among the members, cut to the key's words ("The answer is 7x" → "The answer is"). */
function typicalOpening(members: readonly Doc[], key: string, keysOf: StepTerms['keysOf']): string {
  const forms = new Map<string, number>();
  const n = key.split(' ').length;
  for (const d of members) {
    if (!keysOf(d.opening).includes(key)) continue;
    const form = UNSPACED.test(key) ? cutToLetters(d.opening, [...key].length) : d.opening.split(/\s+/).slice(0, n).join(' ');
    forms.set(form, (forms.get(form) ?? 0) + 1);
  }
  return [...forms].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? '';
}

/** Whether an opening word is topic, not a name: a number, or a word concentrated in a few of the step's prompts (step-terms.ts `StepTerms.topic`). */
export function topicTest(step: StepTerms): (word: string) => boolean {
  return (w) => /\p{N}|#/u.test(w) || step.topic.has(w);
}

/**
 * A quote up to its first topic word or gap ("I need to add serigraphy" → "I need to"; "I need to …
 * the" → "I need to"); '' when nothing is left. A request's numbers, folded to `#`, are the slots of
 * its kind and stay ("Сколько будет # + #?", "# में # जोड़िए"); a name of slots alone says nothing.
 */
export function cutAtTopic(quote: string, topic: (word: string) => boolean): string {
  if (UNSPACED.test(quote.slice(0, 4))) {
    // whole words up to the first number or topic word ("让我先理清瑞利散射" → "让我先理清")
    let kept = '';
    for (const seg of segmentsOf(quote)) {
      if (seg.isWordLike && (/\p{N}/u.test(seg.segment) || topic(seg.segment.toLowerCase()))) break;
      kept += seg.segment;
    }
    kept = kept.replace(/[\s\p{P}]+$/u, '');
    return /\p{L}/u.test(kept) ? kept : '';
  }
  const kept: string[] = [];
  for (const w of quote.split(/\s+/)) {
    if (w === '…') {
      if (kept.length) break; // a leading gap stays: "… is married to"
      kept.push(w);
      continue;
    }
    const bare = w.toLowerCase().replace(/^\p{P}+|\p{P}+$/gu, '');
    // a number written out is what one answer says; one before the first word is a gap ("69 is…" → "… is")
    if (/\p{N}/u.test(bare) && !kept.some((k) => /\p{L}/u.test(k))) {
      if (kept.at(-1) !== '…') kept.push('…');
      continue;
    }
    if (bare && !bare.includes('#') && topic(bare)) break;
    kept.push(w);
  }
  return kept.some((w) => /\p{L}/u.test(w)) ? kept.join(' ') : '';
}

/**
 * The members' openings word by word: a position's commonest word when at least half the members
 * write it there, else "…" ("Matthew is married to Nova" and "John is married to Ava" → "… is married to …").
 */
export function consensusOpening(openings: readonly string[]): string {
  const split = openings.filter(Boolean).map((o) => o.split(/\s+/));
  if (!split.length) return '';
  const out: string[] = [];
  for (let i = 0; i < 5; i++) {
    const counts = new Map<string, [number, string]>();
    for (const ws of split) {
      const w = ws[i];
      if (w === undefined) continue;
      const k = w.toLowerCase();
      const c = counts.get(k);
      counts.set(k, c ? [c[0] + 1, c[1]] : [1, w]);
    }
    const best = [...counts.values()].sort((a, b) => b[0] - a[0] || (a[1] < b[1] ? -1 : 1))[0];
    if (!best) break;
    const word = best[0] >= Math.max(2, split.length / 2) ? best[1] : '…';
    if (!(word === '…' && out.at(-1) === '…')) out.push(word);
  }
  while (out.at(-1) === '…') out.pop();
  return out.filter((w) => w !== '…').length >= 2 ? out.join(' ') : '';
}

/**
 * A group's name: its distinctive opening (quoted) and up to two distinctive shapes; the commonest
 * opening when nothing stands out; for requests, words one request of the run held (`rare`) left out
 * when something else names it (its last sentence, the words before them).
 */
export function groupName(members: readonly Doc[], step: StepTerms, rare = true): GroupName {
  // length tells siblings apart (`apartName`), not a group from its step: most groups of a run write alike lengths
  const found = distinctive(members.map((d) => d.shape), step.shape, step.n, 0.5).filter((t) => shapeLabel(t) !== null && !t.startsWith('len'));
  // "calls search first" says "calls search" already, "verifies often" says "verifies", "bare answer" says "no think"
  const shapes = [...found.filter((t) => !(t.startsWith('tool:') && found.includes(`first:${t.slice(5)}`)) && !found.includes(`${t}-often`)), ...lacking(members, step).filter((t) => !(t === '!reasons' && found.includes('bare')))].slice(0, 2);
  const topic = ((t) => (w: string) => t(w) || (rare && step.rare.has(w)))(topicTest(step));
  // openings up to their first topic word: a name never quotes what a prompt is about
  const keys = members.map((d) => step.keysOf(d.opening).filter((k) => !(UNSPACED.test(k) ? [...segmentWords(k)] : k.split(' ')).some(topic)));
  const openShares = shares(keys, step.openings, step.n);
  // the longest opening (up to three words) most members write and few others do; else one a third write
  const lead = (k: string) => openShares.get(k)![0] - openShares.get(k)![1];
  const depth = (k: string) => (UNSPACED.test(k) ? [...k].length / 2 : k.split(' ').length);
  // each key's depth and lead made once, not in every comparison
  const byLength = [...openShares.keys()]
    .map((k) => ({ k, depth: depth(k), lead: lead(k) }))
    .sort((a, b) => b.depth - a.depth || b.lead - a.lead || (a.k < b.k ? -1 : 1))
    .map((x) => x.k);
  const most = byLength.find((k) => openShares.get(k)![0] >= 0.5 && lead(k) >= 0.2);
  // when most members open with their topic ("Франция даёт Париж…"), what a minority opens with does not name the group
  const topicLed = members.filter((d) => topic(openingWords(d.opening)[0] ?? '')).length >= members.length / 2;
  const distinct = most ?? (topicLed ? undefined : byLength.find((k) => openShares.get(k)![0] >= 0.3 && lead(k) >= 0.2));
  const common = topicLed ? undefined : [...openShares].filter(([k]) => depth(k) === 3).sort((a, b) => b[1][0] - a[1][0] || (a[0] < b[0] ? -1 : 1))[0]?.[0];
  const consensus = cutAtTopic(consensusOpening(members.map((d) => d.opening)), topic);
  let quote = '';
  let first: string | undefined;
  if (most) quote = typicalOpening(members, (first = most), step.keysOf);
  else if (consensus && (distinct || !shapes.length)) quote = consensus;
  else if (distinct && !shapes.length) quote = typicalOpening(members, (first = distinct), step.keysOf);
  else if (!shapes.length && common) quote = typicalOpening(members, common, step.keysOf);
  // a second opening a quarter of the members write, none of them the first, is said too: a state of two
  // tasks ("An anagram is…" / "Given a matrix,…"), a group of two languages
  const second = first && byLength.find((k) => !k.startsWith(first) && !first.startsWith(k) && openShares.get(k)![0] >= 0.25 && lead(k) >= 0.2 && keys.every((ks) => !(ks.includes(k) && ks.includes(first))));
  const cut = second ? cutAtTopic(typicalOpening(members, second, step.keysOf), topic) : '';
  // ("I…" says nothing: function words alone are no second quote)
  const also = UNSPACED.test(cut) || openingWords(cut).some(isWordTerm) ? cut : '';
  quote = cutAtTopic(quote, topic);
  // a quote of function words alone ("To…", "The…") says nothing its shapes do not
  if (shapes.length && !UNSPACED.test(quote) && openingWords(quote).every((w) => !isWordTerm(w))) quote = '';
  // requests whose head is what each is about ("Mcbride esteems martial arts. …") may share their last sentence ("Reply only with a name.")
  const closing = quote || shapes.length ? '' : cutAtTopic(consensusOpening(members.map((d) => d.closing ?? '')), topic);
  // a kind seen in one request so far ("Restore the correct order…") is named by that request rather than
  // not at all, or than by a lone word ("A…" for "A very special…": early in a run of a hundred kinds
  // every kind's own words are one request's)
  if (rare && step.rare.size && !shapes.length && wordCount(quote || closing) < 2) {
    const fuller = groupName(members, step, false);
    if (wordCount(fuller.title) > wordCount(quote || closing)) return fuller;
  }
  // a last sentence cut short (at a topic word, or after five words) ends in "…" as an opening does
  const closingQuote = `"… ${closing}${/[.!?]$/.test(closing) ? '' : '…'}"`;
  const titleParts = [...(quote ? [`"${quote}…"${also && also !== quote ? ` / "${also}…"` : ''}`] : closing ? [closingQuote] : []), ...shapes.map((t) => shapeText(t)!)];
  // the quote, then shapes while they fit (a label is at most 44 characters, whole words)
  const label = [...(quote || closing ? [openingLabel(quote || closing)] : []), ...shapes.map((t) => shapeLabel(t)!)]
    .filter(Boolean)
    .reduce((a, part) => (!a ? part.slice(0, 44) : (a + '·' + part).length <= 44 ? `${a}·${part}` : a), '')
    .replace(/[\s/]+/g, '_');
  return { label: label || 'plain', title: titleParts.join(' · ') || 'plain' };
}

/** Words of a quote that hold a letter ('"… Reply only with a name."' → 5; an unspaced script's quote counts as 2). */
function wordCount(quote: string): number {
  if (UNSPACED.test(quote)) return 2;
  return quote.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length;
}
