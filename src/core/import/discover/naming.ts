// Names a person reads for a discovered group, made from what sets it apart from the step's other
// samples: its typical opening, quoted in its own language, when that opening is distinctive, and
// its most distinctive shapes in words ("backtracks", "boxed answer", "calls lookup_order first").
// Never a pair of content words: those say what a response is about, not what it does. A name has
// two forms: the label (a metric key: no white space, no "/", at most 48 characters) and the title
// a page or a terminal shows.
import { SENTENCE_END, UNSPACED, openingWords, segmentWords, segmentsOf } from './opening';
import type { StepTerms } from './step-terms';
import { isWordTerm } from './text';
import type { Doc } from './vectors';

/** Shape terms in words, and in the label's short form; length and line buckets are not shown. */
const SHAPES: Record<string, [title: string, label: string]> = {
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
function boundText(term: string): string | null {
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

function shapeLabel(term: string): string | null {
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
function openingLabel(opening: string): string {
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
function topicTest(step: StepTerms): (word: string) => boolean {
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
 * A name that says more than `name`, for a group whose name another group has (two states that
 * open "What is the…"): the members' openings word by word, up to five words, in place of the
 * quote ("What is the tallest mountain…"); null when that says no more.
 */
export function fullerName(members: readonly Doc[], name: GroupName, step: StepTerms): GroupName | null {
  const quote = cutAtTopic(consensusOpening(members.map((d) => d.opening)), topicTest(step));
  const m = /^"(.*)…"/.exec(name.title);
  if (!quote || !m || quote.length <= m[1].length || !quote.startsWith(m[1])) return null;
  const rest = name.title.slice(m[0].length);
  const shapes = name.label.includes('·') ? name.label.slice(name.label.indexOf('·')) : '';
  return { label: `${openingLabel(quote)}${shapes}`.slice(0, 44), title: `"${quote}…"${rest}` };
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

/** What a group of the same name holds of each shape term: counts over `n` members (clusters.ts `Cluster.shape`). */
export interface Sibling {
  n: number;
  shape: ReadonlyMap<string, number>;
}

/** What members hold of each shape term, counted as a group's are. */
export function holding(members: readonly Doc[]): Sibling {
  const shape = new Map<string, number>();
  for (const d of members) for (const t of d.shape) shape.set(t, (shape.get(t) ?? 0) + 1);
  return { n: members.length, shape };
}

/** A shape or length that sets a group apart from others, and whether it is what the group lacks. */
interface Apart {
  t: string;
  lead: number;
  absent: boolean;
}

/**
 * The shapes and lengths that set `members` apart from `siblings`, the largest difference first: one
 * half the members hold and a fifth fewer of the siblings' (`loose`: a tenth), or one half the
 * siblings' hold and a tenth of the members (`loose`: a fifth more of theirs); none in `said`.
 */
function apartTerms(group: Sibling, siblings: readonly Sibling[], said: ReadonlySet<string>, loose = false): Apart[] {
  const total = siblings.reduce((a, s) => a + s.n, 0);
  if (!total || !group.n) return [];
  const [mine, members] = [group.shape, { length: group.n }];
  const theirs = new Map<string, number>();
  for (const s of siblings) for (const [t, k] of s.shape) theirs.set(t, (theirs.get(t) ?? 0) + k);
  const found: Apart[] = [];
  for (const t of new Set([...mine.keys(), ...theirs.keys()])) {
    const text = shapeText(t);
    if (!text || t.startsWith('!') || said.has(text)) continue;
    const [a, b] = [(mine.get(t) ?? 0) / members.length, (theirs.get(t) ?? 0) / total];
    if (a >= 0.5 && a - b >= (loose ? 0.1 : 0.2)) found.push({ t, lead: a - b, absent: false });
    else if ((loose ? b - a >= 0.2 : b >= 0.5) && a <= 0.1 && SHAPES[t]) found.push({ t, lead: b - a, absent: true });
  }
  // lengths spread over buckets (none holds half the members, none said): longer or shorter than a bound ("16+ words")
  // half the members keep and a fifth fewer of the siblings'
  const spread = ![...mine].some(([t, c]) => /^len\d$/.test(t) && c / members.length >= 0.5) && ![...said].some((p) => LENGTH_TITLE.test(p));
  if (loose && spread)
    for (let k = 1; k <= 8; k++) {
      const longer = (m: ReadonlyMap<string, number>, n: number) => [...m].reduce((x, [t, c]) => x + (/^len\d$/.test(t) && Number(t[3]) >= k ? c : 0), 0) / n;
      const [a, b] = [longer(mine, members.length), longer(theirs, total)];
      for (const [t, x, y] of [[`len≥${k}`, a, b], [`len<${k}`, 1 - a, 1 - b]] as const) if (x >= 0.5 && x - y >= 0.2 && !said.has(boundText(t)!)) found.push({ t, lead: x - y, absent: false });
    }
  return found.sort((x, y) => y.lead - x.lead || (x.t < y.t ? -1 : 1));
}

const apartText = (x: Apart) => `${x.absent ? 'no ' : ''}${shapeText(x.t)}`;

/**
 * A name that says what sets a group apart from the groups that have its name (Claude opens most
 * answers "I need to": one group writes 64–127 words, another no bullets): `name` and the one shape or
 * length half its members hold and a fifth fewer of the siblings' (or that half the siblings hold and a
 * tenth of its members: "no bullets"), the largest difference; null when none.
 */
export function apartName(members: readonly Doc[], name: GroupName, siblings: readonly Sibling[]): GroupName | null {
  const best = apartTerms(holding(members), siblings, new Set(name.title.split(' · ')))[0];
  if (!best) return null;
  const no = best.absent ? 'no ' : '';
  const label = `${name.label}·${no.replace(' ', '-')}${shapeLabel(best.t)}`;
  return { label: label.length <= 44 ? label : name.label, title: `${name.title === 'plain' ? '' : `${name.title} · `}${apartText(best)}` };
}

/** A group listed beside the one being titled: its title and what its members hold (clusters.ts `Cluster.shape`). */
export interface Shown extends Sibling {
  title: string;
}

/**
 * A title no group in `shown` has, for a group (what its members hold) titled `title` as another is: `title` and what
 * sets the members apart from the groups of that title (as `apartName`; a looser difference when
 * none, "code · no headings"), then from those of the longer title when one has it too (at most two
 * parts added: `"I need to…" · 128–255 words · bullets`); null when nothing does.
 */
export function apartTitle(group: Sibling, title: string, shown: readonly Shown[]): string | null {
  const taken = new Set(shown.map((s) => s.title));
  let t = title;
  for (let round = 0; round < 2 && taken.has(t); round++) {
    const alike = shown.filter((s) => s.title === t);
    // a shape said either way is said ("no bullets" then "bullets" says nothing)
    const said = new Set(t.split(' · ').map((p) => p.replace(/^no /, '')));
    const next = [...apartTerms(group, alike, said), ...apartTerms(group, alike, said, true)].map((x) => `${t === 'plain' ? '' : `${t} · `}${apartText(x)}`);
    if (!next.length) return null;
    t = next.find((x) => !taken.has(x)) ?? next[0];
  }
  return taken.has(t) ? null : t;
}

/**
 * `title` with the members' opening in front, for a title that quotes none (or only a request's last
 * sentence) and that another group has ("bullets" → `"Let me analyze the examples…" · bullets`; a
 * state of one request: `"Elvin is crazy about blogging.…" · "… Reply only with a name."`): the
 * openings word by word, as `fullerName`; null when they share none.
 */
export function quotedTitle(members: readonly Doc[], title: string, step: StepTerms): string | null {
  if (title.startsWith('"') && !title.startsWith('"… ')) return null;
  const words = cutAtTopic(consensusOpening(members.map((d) => d.opening)), topicTest(step)).split(' ');
  // up to its first sentence's end, and not a word the opening's 36 characters cut (opening.ts `openingOf`)
  const end = words.findIndex((w) => SENTENCE_END.includes(w.at(-1) ?? ''));
  if (end >= 0) words.splice(end + 1);
  else if (words.join(' ').length >= 36) words.pop();
  const quote = words.some((w) => /\p{L}/u.test(w)) ? words.join(' ') : '';
  return quote ? `"${quote}…"${title === 'plain' ? '' : ` · ${title}`}` : null;
}
