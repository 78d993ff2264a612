// Names told apart: a group whose name another group listed beside it has (siblings that all open "I
// need to…", two states that open "What is the…", a merged group's last title) is named by what sets
// it apart — more of its opening, the shape or length that separates its members, or the opening
// they share — so no two names a page lists read alike.
import { SENTENCE_END } from './opening';
import { LENGTH_TITLE, SHAPES, boundText, consensusOpening, cutAtTopic, openingLabel, shapeLabel, shapeText, topicTest, type GroupName } from './naming';
import type { StepTerms } from './step-terms';
import type { Doc } from './vectors';

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
