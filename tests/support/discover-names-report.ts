// Whether discovered names tell the truth on a run (issue 45 §5): at each step a group is given, the
// share of its members that write its quoted opening and hold its named shapes (the name check), and
// the names whose quote holds a topic word (one of few prompts: a digit, or a word the openings of
// under 3 distinct prompts write in the whole run — responses' openings for behaviors, requests'
// openings and last sentences for states), and the groups named alike (a current group whose title, "(~k)" dropped, another current
// group has, summed over steps; `shownAlike`: the same over every name given so far, merged ones included, as the page
// and `npm run import` list them). Measured on the titles as they stand after each step.
//   npx tsx tests/support/discover-names-report.ts DIR [--list]   (a verl folder; FORMAT=jsonl (trl, openclaw) for another format)
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { importSamples } from '../../src/core/import/read/pipeline';
import { memorySource } from '../../src/core/import/sources';
import type { ImportedSample } from '../../src/core/import/types';
import { Discovery } from '../../src/core/import/discover/step-labels';
import { BehaviorDiscoverer, StateDiscoverer, NO_PROMPT, OTHER_STATE, UNCLASSIFIED } from '../../src/core/import/discover/discoverer';
import { promptTerms } from '../../src/core/import/discover/text';
import { shapeText } from '../../src/core/import/discover/naming';
import { UNSPACED } from '../../src/core/import/discover/opening';
import { BehaviorClassifier, StateClassifier } from '../../src/core/import/rules/rules';

interface Member {
  opening: string;
  /** A request's last sentence (a state's title may quote it: '"… Reply only with a name."'). */
  closing?: string;
  /** Shapes in words it holds (and lacks: "no think"). */
  shapes: Set<string>;
  prompt: string;
}

// an unspaced script's words as segmented (a quote "这是…" is written by "这是个很好的问题")
const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });
const segmentWords = (t: string) => [...segmenter.segment(t)].filter((s) => s.isWordLike).map((s) => s.segment);
const wordsOf = (t: string) =>
  UNSPACED.test(t)
    ? segmentWords(t.toLowerCase())
    : t
        .toLowerCase()
        .split(/\s+/)
        .map((w) => w.replace(/^\p{P}+|\p{P}+$/gu, ''))
        .filter(Boolean);

/** The quoted opening of a title (gaps as '…'; a second opening), the request's last sentence it quotes, and its other parts (shapes). */
export function titleParts(title: string): { quote: string | null; also: string | null; closing: string | null; shapes: string[] } {
  const t = title.replace(/ \((~\d+|until step \d+)\)$/, '');
  // a group no one opening holds most of says its two leading ones: '"An anagram is…" / "Given a matrix,…"'
  const m = /^"(.*?)…"(?: \/ "(.*?)…")?( · |$)/.exec(t);
  // a request's last sentence, alone or after its opening ('"Elvin is crazy about blogging.…" · "… Reply only with a name."')
  const after = m ? t.slice(m[0].length) : t;
  const c = /^"… (.*?)"( · |$)/.exec(after);
  const rest = c ? after.slice(c[0].length) : after;
  return { quote: m ? m[1] : null, also: m?.[2] ?? null, closing: c ? c[1] : null, shapes: rest ? rest.split(' · ').filter((p) => p && p !== 'plain') : [] };
}

/** Whether an opening writes a quote: its words in order, a '…' standing for one word or more. */
export function writes(opening: string, quote: string): boolean {
  const o = wordsOf(opening);
  const parts = quote.split('…').map((p) => wordsOf(p));
  let at = 0;
  for (let k = 0; k < parts.length; k++) {
    const p = parts[k];
    if (k > 0) {
      // a gap: the part at any later position
      let found = -1;
      for (let s = at + 1; s + p.length <= o.length && found < 0; s++) if (p.every((w, j) => o[s + j] === w)) found = s;
      if (found < 0 && p.length) return false;
      at = found + p.length;
    } else {
      if (!p.every((w, j) => o[j] === w)) return false;
      at = p.length;
    }
  }
  return true;
}

function shapesOf(shape: readonly string[]): Set<string> {
  const out = new Set(shape.map((t) => shapeText(t)).filter((x): x is string => !!x));
  for (const k of ['reasons', 'answer-tag', 'tool']) if (!shape.includes(k)) out.add(shapeText(`!${k}`)!);
  // a length bound a title may say ("16+ words", "under 16 words")
  const len = Number(shape.find((t) => /^len\d$/.test(t))?.slice(3) ?? NaN);
  if (len === len) for (let k = 1; k <= 8; k++) out.add(shapeText(len >= k ? `len≥${k}` : `len<${k}`)!);
  return out;
}

async function run(dir: string, list: boolean) {
  const files = readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort((a, b) => parseInt(a) - parseInt(b));
  const samples: ImportedSample[] = [];
  await importSamples(files.map((f) => memorySource(f, readFileSync(join(dir, f)))), { format: (process.env.FORMAT ?? 'verl') as 'verl' }, (s) => samples.push(s));
  const bd = new BehaviorDiscoverer();
  const sd = new StateDiscoverer();
  const d = new Discovery(bd, sd);
  const probe = new BehaviorDiscoverer();
  const sc = new StateClassifier({ kind: 'single' });
  const bc = new BehaviorClassifier({ rules: [] });
  const steps = [...new Set(samples.map((s) => s.step))].sort((a, b) => a - b);
  const check = { behaviors: { members: 0, ok: 0, groups: 0 }, states: { members: 0, ok: 0, groups: 0 } };
  const alike = { behaviors: { groups: 0, alike: 0, shown: 0, shownAlike: 0 }, states: { groups: 0, alike: 0, shown: 0, shownAlike: 0 } };
  const worst: { what: string; step: number; name: string; title: string; n: number; share: number }[] = [];
  // topic words, run-wide: distinct prompts whose response openings (behaviors) or request openings (states) hold a word
  const held = { behaviors: new Map<string, Set<string>>(), states: new Map<string, Set<string>>() };
  const titlesSeen = { behaviors: new Map<string, string>(), states: new Map<string, string>() };
  for (const step of steps) {
    const at = samples.filter((s) => s.step === step);
    const labels = d.step(step, at, sc, bc);
    for (const [what, dd] of [['behaviors', bd], ['states', sd]] as const) {
      // named alike: current groups whose title (its "(~k)" dropped) another current group has
      const bases = dd.behaviors().filter((b) => b.mergedInto === null).map((b) => b.title.replace(/ \(~\d+\)$/, ''));
      alike[what].groups += bases.length;
      alike[what].alike += bases.filter((t) => bases.indexOf(t) !== bases.lastIndexOf(t)).length;
      // shown alike: every name given so far (merged ones too: the page and `npm run import` list them all)
      const shown = dd.behaviors().map((b) => b.title.replace(/ \(~\d+\)$/, ''));
      alike[what].shown += shown.length;
      alike[what].shownAlike += shown.filter((t) => shown.indexOf(t) !== shown.lastIndexOf(t)).length;
    }
    const bTitles = new Map(bd.behaviors().map((b) => [b.name, b.title]));
    const sTitles = new Map(sd.behaviors().map((b) => [b.name, b.title]));
    const groups = { behaviors: new Map<string, Member[]>(), states: new Map<string, Member[]>() };
    at.forEach((s, k) => {
      const f = probe.features(s);
      if (f.doc) {
        const m = { opening: f.doc.opening, shapes: shapesOf(f.doc.shape), prompt: s.prompt };
        for (const w of wordsOf(m.opening)) held.behaviors.set(w, (held.behaviors.get(w) ?? new Set()).add(s.prompt));
        const l = labels[k].behavior;
        if (l !== UNCLASSIFIED) groups.behaviors.set(l, [...(groups.behaviors.get(l) ?? []), m]);
      }
      const terms = promptTerms(sd.request(s.prompt));
      const q = terms.find((t) => t.startsWith('q:'))?.slice(2) ?? '';
      const e = terms.find((t) => t.startsWith('e:'))?.slice(2) ?? '';
      for (const w of [...wordsOf(q), ...wordsOf(e)]) held.states.set(w, (held.states.get(w) ?? new Set()).add(s.prompt));
      const l = labels[k].state;
      if (l !== OTHER_STATE && l !== NO_PROMPT) groups.states.set(l, [...(groups.states.get(l) ?? []), { opening: q, closing: e, shapes: new Set(), prompt: s.prompt }]);
    });
    for (const what of ['behaviors', 'states'] as const) {
      const titles = what === 'behaviors' ? bTitles : sTitles;
      for (const [name, members] of groups[what]) {
        const title = titles.get(name) ?? name;
        titlesSeen[what].set(name, title);
        const { quote, also, closing, shapes } = titleParts(title);
        const ok = members.filter((m) => (quote === null || writes(m.opening, quote) || (also !== null && writes(m.opening, also))) && (closing === null || writes(m.closing ?? '', closing)) && shapes.every((p) => m.shapes.has(p) || (p.startsWith('no ') && !m.shapes.has(p.slice(3))))).length;
        check[what].members += members.length;
        check[what].ok += ok;
        check[what].groups++;
        worst.push({ what, step, name, title, n: members.length, share: ok / members.length });
      }
    }
  }
  const topicOf = (what: 'behaviors' | 'states', title: string) => {
    const { quote, also, closing } = titleParts(title);
    const said = quote !== null ? `${quote} ${also ?? ''}` : closing;
    return said ? wordsOf(said.replace(/…/g, ' ')).filter((w) => /\p{N}/u.test(w) || (held[what].get(w)?.size ?? 0) < 3) : [];
  };
  const out = {
    dir,
    samples: samples.length,
    nameCheck: Object.fromEntries((['behaviors', 'states'] as const).map((w) => [w, { groupSteps: check[w].groups, members: check[w].members, share: Math.round((1000 * check[w].ok) / Math.max(1, check[w].members)) / 1000 }])),
    namedAlike: alike,
    topicNames: Object.fromEntries((['behaviors', 'states'] as const).map((w) => [w, [...titlesSeen[w]].flatMap(([n, t]) => (topicOf(w, t).length ? [`${n} ${t} [${topicOf(w, t).join(' ')}]`] : []))])),
    lowest: worst
      .filter((x) => x.n >= 10)
      .sort((a, b) => a.share - b.share || b.n - a.n)
      .slice(0, 8)
      .map((x) => `${x.what} step ${x.step} ${x.name} ${x.title}: ${x.n} members, ${Math.round(100 * x.share)} % write it`),
    ...(list ? { behaviors: [...titlesSeen.behaviors].map(([n, t]) => `${n}  ${t}`), states: [...titlesSeen.states].map(([n, t]) => `${n}  ${t}`) } : {}),
  };
  console.log(JSON.stringify(out, null, 2));
}

const dir = process.argv[2];
if (dir) void run(dir, process.argv.includes('--list'));
