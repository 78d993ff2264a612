// A rule's pattern means what it means in JavaScript, whichever engine runs it: random regular
// patterns over the characters where RE2 and JavaScript disagree (NBSP, U+2028, U+FEFF, \r, the
// Kelvin sign, long s) match alike on RE2 (translated) and on RegExp; what RE2 cannot say runs on
// the backtracking engine; Python's syntax is accepted.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ruleRegexEngine } from './engine';
import { normalizePattern } from '../../core/import/rules/regex-syntax';

const engine = ruleRegexEngine(null);
const ALPHABET = ['a', 'b', 'A', 'k', 'K', '\u212A', 's', 'S', '\u017F', ' ', '\t', '\n', '\r', '\u000B', '\u00A0', '\u2028', '\uFEFF', '_', '1', 'é', 'É'];
const esc = (c: string) => (/[a-zA-Z0-9 _]/.test(c) ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

const atom = fc.oneof(
  fc.constantFrom(...ALPHABET).map(esc),
  fc.constantFrom('.', '\\s', '\\S', '\\w', '\\W', '\\d', '\\D', '[ab]', '[^a]', '[a-k]', '[^\\s]', '[\\w\\u00a0]', '[K-k]', '[]', '[^]'),
);
const { pattern } = fc.letrec<{ pattern: string; seq: string; item: string }>((tie) => ({
  pattern: fc.array(tie('seq'), { minLength: 1, maxLength: 3 }).map((xs) => xs.join('|')),
  seq: fc.array(tie('item'), { minLength: 0, maxLength: 4 }).map((xs) => xs.join('')),
  item: fc.oneof(
    { weight: 5, arbitrary: atom },
    { weight: 1, arbitrary: fc.constantFrom('^', '$', '\\b', '\\B') },
    { weight: 2, arbitrary: fc.tuple(atom, fc.constantFrom('*', '+', '?', '{1,3}', '*?', '+?', '{2}')).map(([a, q]) => a + q) },
    { weight: 1, arbitrary: fc.tuple(tie('pattern'), fc.constantFrom('*', '+', '?', '{1,3}', '+?', '{2}'), fc.boolean()).map(([p, q, cap]) => `(${cap ? '' : '?:'}${p})${q}`) },
    { weight: 1, arbitrary: tie('pattern').map((p) => `(?:${p})`) },
    { weight: 1, arbitrary: tie('pattern').map((p) => `(${p})`) },
  ),
}));
const text = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 12 }).map((xs) => xs.join(''));

function jsFind(p: string, flags: string, t: string) {
  const m = new RegExp(p, flags).exec(t);
  return m && { text: m[0], first: m.length > 1 ? (m[1] ?? null) : null };
}

describe('rule regexes on RE2 mean what they mean in JavaScript', () => {
  for (const flags of ['', 'i', 's', 'is', 'u', 'su']) {
    it(`random regular patterns, flags "${flags}"`, () => {
      let onRe2 = 0;
      fc.assert(
        fc.property(pattern, fc.array(text, { minLength: 1, maxLength: 6 }), (p, texts) => {
          const re = engine.compile(p, flags, 'rule');
          if (re.runsOn !== 're2') return;
          onRe2++;
          for (const t of texts) {
            const got = re.find(t);
            expect(got && { text: got.text, first: got.first }, `/${p}/${flags} on ${JSON.stringify(t)}`).toEqual(jsFind(p, flags, t));
          }
        }),
        { numRuns: 400, seed: 7 },
      );
      expect(onRe2).toBeGreaterThan(250); // the comparison is not vacuous: most random patterns run on RE2
    });
  }

  it('the disagreements the issue measured are gone', () => {
    const same = (p: string, flags: string, t: string) => expect(!!engine.compile(p, flags, 'r').find(t), `/${p}/${flags} on ${JSON.stringify(t)}`).toBe(new RegExp(p, flags).test(t));
    for (const t of ['\u00A0', '\u2028', '\uFEFF', '\u000B']) same('^\\s$', '', t);
    same('^.$', '', '\r');
    same('^k$', 'i', '\u212A');
    same('^s$', 'i', '\u017F');
    same('^[a-z]$', 'i', '\u212A');
  });

  it('what RE2 cannot say runs on the backtracking engine, and says why', () => {
    const on = (p: string, flags = '') => engine.compile(p, flags, 'r');
    expect(on('^<think>(?!.*<think>)(.*?)</think>.*$', 's').runsOn).toBe('backtracking');
    expect(on('(a)\\1').why).toMatch(/backreferences/);
    expect(on('\\p{Script=Greek}', 'u').why).toMatch(/property/);
    expect(on('a{1001}').why).toMatch(/over 1000/);
    expect(on('^a', 'm').why).toMatch(/"m" flag/);
    expect(on('(?:(a)|b)+').why).toMatch(/capturing group that a repeat can pass by/);
    expect(on('(?:|a)*').why).toMatch(/body can match the empty string/);
    expect(on('(a+)+$').runsOn).toBe('re2'); // every round passes through the capture: same last capture
    for (const p of ['\\u0041', '\\u{1F600}', '\\cJ', '[\\b]', '[^]', 'x{2,5}']) expect(on(p, p.includes('{1F') ? 'u' : '').runsOn, p).toBe('re2');
    expect(() => on('(?<=a')).toThrow();
  });

  it('an astral character in the text sends a pattern without "u" to JavaScript (it counts two units there)', () => {
    const re = engine.compile('^.$', '', 'r');
    expect(re.runsOn).toBe('re2');
    expect(() => re.find('😀')).toThrow(/backtracking engine/); // no guard here: it would run on RegExp
    expect(re.find('x')?.text).toBe('x');
    expect(engine.compile('^.$', 'u', 'r').find('😀')?.text).toBe('😀');
  });
});

describe("Python's syntax, as people paste it", () => {
  it('(?P<name>…), (?P=name) and a leading (?i) are rewritten to JavaScript', () => {
    expect(normalizePattern('(?i)task: (?P<state>\\w+) (?P=state)', '')).toEqual({ pattern: 'task: (?<state>\\w+) \\k<state>', flags: 'i' });
    expect(engine.compile('(?i)^task: (?P<state>\\w+)', '', 'r').find('TASK: Math')?.named.state).toBe('Math');
    expect(normalizePattern('[(?P<x>)]', '').pattern).toBe('[(?P<x>)]'); // inside a class it is characters
  });

  it('\\A, \\Z, \\z and mid-pattern inline flags are refused with what to write', () => {
    expect(() => normalizePattern('\\Aabc\\z', '')).toThrow(/letter A in JavaScript; .* write \^ or \$/);
    expect(() => normalizePattern('a(?i)b', '')).toThrow(/only at the very start/);
  });
});
