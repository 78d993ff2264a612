// A rule's pattern means what it means in JavaScript. This module decides, from the pattern's
// syntax tree (@eslint-community/regexpp, the parser ESLint uses), whether RE2 can run it with the
// same meaning, and writes the RE2 pattern that does: every character as \x{…}, every class spelled
// out with JavaScript's sets (\s with NBSP, U+2028, U+FEFF; `.` without \r), case-insensitivity
// unfolded into explicit classes by JavaScript's own Canonicalize. What RE2 cannot say exactly
// (lookarounds, backreferences, \p{…}, `m`-flag anchors, `iu`, counts over 1000, captures inside a
// repeat) is left to JavaScript's RegExp, which the shells run under a time budget.
import { RegExpParser, type AST } from '@eslint-community/regexpp';

export interface Translation {
  /** The RE2 pattern with JavaScript's meaning, or null when only JavaScript's engine can run it. */
  re2: string | null;
  /** Why the pattern needs JavaScript's backtracking engine (for the docs and messages). */
  why: string | null;
  /** Non-`u` patterns count an astral character as two: on a text holding one, RE2 (code points) could differ. */
  unitsMatter: boolean;
}

type Ranges = [number, number][];

const MAX_UNIT = 0xffff;
const MAX_CODE_POINT = 0x10ffff;
const RE2_MAX_REPEAT = 1000;

// JavaScript's sets, spelled out (ECMA-262 WhiteSpace + LineTerminator; \d; \w without `iu`).
const SPACE: Ranges = [[0x09, 0x0d], [0x20, 0x20], [0xa0, 0xa0], [0x1680, 0x1680], [0x2000, 0x200a], [0x2028, 0x2029], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000], [0xfeff, 0xfeff]];
const DIGIT: Ranges = [[0x30, 0x39]];
const WORD: Ranges = [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]];
const LINE_TERMINATORS: Ranges = [[0x0a, 0x0a], [0x0d, 0x0d], [0x2028, 0x2029]];

class NeedsBacktracking extends Error {}
const needs = (why: string): never => {
  throw new NeedsBacktracking(why);
};

/** Translate a JavaScript pattern (already valid for `new RegExp(pattern, flags)`) for RE2. */
export function translateForRe2(pattern: string, flags: string): Translation {
  const unicode = flags.includes('u');
  const unitsMatter = !unicode;
  try {
    const ast = new RegExpParser({ ecmaVersion: 2024 }).parsePattern(pattern, 0, pattern.length, { unicode });
    const t = new Emitter(flags);
    return { re2: t.alternatives(ast.alternatives), why: null, unitsMatter };
  } catch (e) {
    if (e instanceof NeedsBacktracking) return { re2: null, why: e.message, unitsMatter };
    throw e;
  }
}

class Emitter {
  private readonly ignoreCase: boolean;
  private readonly unicode: boolean;
  private readonly dotAll: boolean;
  private readonly multiline: boolean;
  private readonly max: number;

  constructor(flags: string) {
    this.ignoreCase = flags.includes('i');
    this.unicode = flags.includes('u');
    this.dotAll = flags.includes('s');
    this.multiline = flags.includes('m');
    this.max = this.unicode ? MAX_CODE_POINT : MAX_UNIT;
    if (this.ignoreCase && this.unicode) needs('the flags "iu" fold case by Unicode case folding');
  }

  alternatives(alts: AST.Alternative[]): string {
    return alts.map((a) => a.elements.map((e) => this.element(e, 0)).join('')).join('|');
  }

  private element(e: AST.Element, repeats: number): string {
    switch (e.type) {
      case 'Character':
        return this.cls(this.fold([[e.value, e.value]]), false);
      case 'CharacterClass':
        if (e.unicodeSets) needs('character classes with the "v" flag');
        return this.cls(this.fold(this.classRanges(e as AST.ClassRangesCharacterClass)), e.negate);
      case 'CharacterSet':
        return this.set(e);
      case 'Group':
        if (e.modifiers) needs('inline modifiers');
        return `(?:${this.alternatives(e.alternatives)})`;
      case 'CapturingGroup':
        return `(${e.name ? `?P<${e.name}>` : ''}${this.alternatives(e.alternatives)})`;
      case 'Quantifier':
        return this.quantifier(e, repeats);
      case 'Assertion':
        return this.assertion(e);
      case 'Backreference':
        return needs('backreferences');
      default:
        return needs(`${(e as AST.Node).type}`);
    }
  }

  private quantifier(q: AST.Quantifier, repeats: number): string {
    if (q.min > RE2_MAX_REPEAT || (q.max !== Infinity && q.max > RE2_MAX_REPEAT)) needs(`a count over ${RE2_MAX_REPEAT}`);
    if (q.element.type === 'Assertion') needs('a repeated assertion');
    // JavaScript refuses a round that matches empty and tries the body's next way; RE2 takes the empty round
    if (q.max >= 1 && minLength(q.element) === 0) needs('a repeat whose body can match the empty string');
    // JavaScript clears a repeat's captures each time round; RE2 keeps the last ones set. They agree
    // when every round must pass through each capture
    if (q.max > 1 && hasCapture(q.element) && !capturesEveryRound(q.element)) needs('a capturing group that a repeat can pass by (JavaScript clears it each time round)');
    const body = this.element(q.element, q.max > 1 ? repeats + 1 : repeats);
    const lazy = q.greedy ? '' : '?';
    const count = q.min === 0 && q.max === Infinity ? '*' : q.min === 1 && q.max === Infinity ? '+' : q.min === 0 && q.max === 1 ? '?' : q.max === Infinity ? `{${q.min},}` : q.min === q.max ? `{${q.min}}` : `{${q.min},${q.max}}`;
    return `(?:${body})${count}${lazy}`;
  }

  private assertion(a: AST.Assertion): string {
    switch (a.kind) {
      case 'start':
      case 'end':
        // JavaScript's `m` anchors also stand at \r, U+2028 and U+2029; RE2's only at \n
        if (this.multiline) needs('the "m" flag with ^ or $');
        return a.kind === 'start' ? '^' : '$';
      case 'word':
        return a.negate ? '\\B' : '\\b'; // both ASCII word characters without "iu"
      default:
        return needs('lookarounds');
    }
  }

  private set(s: AST.CharacterSet): string {
    if (s.kind === 'any') return this.dotAll ? this.cls([[0, this.max]], false) : this.cls(LINE_TERMINATORS, true);
    if (s.kind === 'property') return needs('Unicode property escapes (\\p{…})');
    return this.cls(this.fold(this.escapeSet(s)), false);
  }

  private escapeSet(s: AST.EscapeCharacterSet): Ranges {
    const base = s.kind === 'digit' ? DIGIT : s.kind === 'space' ? SPACE : WORD;
    return s.negate ? complement(base, this.max) : base;
  }

  private classRanges(c: AST.ClassRangesCharacterClass): Ranges {
    const out: Ranges = [];
    for (const el of c.elements) {
      if (el.type === 'Character') out.push([el.value, el.value]);
      else if (el.type === 'CharacterClassRange') out.push([el.min.value, el.max.value]);
      else if (el.kind === 'property') needs('Unicode property escapes (\\p{…})');
      else out.push(...this.escapeSet(el));
    }
    return normalize(out);
  }

  /** Under `i`, every character JavaScript's Canonicalize puts beside one in the set. */
  private fold(r: Ranges): Ranges {
    return this.ignoreCase ? foldCase(r) : r;
  }

  private cls(r: Ranges, negate: boolean): string {
    const set = negate ? complement(r, this.max) : normalize(r);
    if (set.length === 0) return '[^\\x{0}-\\x{10FFFF}]';
    if (set.length === 1 && set[0][0] === set[0][1]) return hex(set[0][0]);
    return `[${set.map(([a, b]) => (a === b ? hex(a) : `${hex(a)}-${hex(b)}`)).join('')}]`;
  }
}

type Node = AST.Element | AST.Alternative;

function hasCapture(n: Node): boolean {
  if (n.type === 'CapturingGroup') return true;
  if (n.type === 'Alternative') return n.elements.some(hasCapture);
  if (n.type === 'Group' || (n.type === 'Assertion' && (n.kind === 'lookahead' || n.kind === 'lookbehind'))) return n.alternatives.some(hasCapture);
  if (n.type === 'Quantifier') return hasCapture(n.element);
  return false;
}

/** Every match of `n` passes through each capture inside it (no alternation, no optional repeat around one). */
function capturesEveryRound(n: Node): boolean {
  if (n.type === 'Alternative') return n.elements.every(capturesEveryRound);
  if (n.type === 'Group' || n.type === 'CapturingGroup') return n.alternatives.length === 1 ? capturesEveryRound(n.alternatives[0]) : !n.alternatives.some(hasCapture);
  if (n.type === 'Quantifier') return !hasCapture(n.element) || (n.min > 0 && capturesEveryRound(n.element));
  return true;
}

function minLength(n: Node): number {
  switch (n.type) {
    case 'Alternative':
      return n.elements.reduce((sum, e) => sum + minLength(e), 0);
    case 'Group':
    case 'CapturingGroup':
      return Math.min(...n.alternatives.map(minLength));
    case 'Quantifier':
      return n.min * minLength(n.element);
    case 'Character':
    case 'CharacterClass':
    case 'CharacterSet':
      return 1;
    default:
      return 0;
  }
}

const hex = (c: number) => `\\x{${c.toString(16).toUpperCase()}}`;

function normalize(r: Ranges): Ranges {
  const s = [...r].sort((x, y) => x[0] - y[0]);
  const out: Ranges = [];
  for (const [a, b] of s) {
    const last = out[out.length - 1];
    if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

function complement(r: Ranges, max: number): Ranges {
  const out: Ranges = [];
  let next = 0;
  for (const [a, b] of normalize(r)) {
    if (a > next) out.push([next, a - 1]);
    next = b + 1;
  }
  if (next <= max) out.push([next, max]);
  return out;
}

const SMALL_SET = 4096;
const folded = new Map<string, Ranges>();
let CANON: Uint16Array | null = null;
let ORBITS: Map<number, number[]> | null = null;

/** The set closed under JavaScript's `i` (without `u`): every unit whose Canonicalize is that of a member. */
function foldCase(r: Ranges): Ranges {
  const key = r.map(([a, b]) => `${a}-${b}`).join(',');
  const hit = folded.get(key);
  if (hit) return hit;
  const canon = canonTable();
  const out: Ranges = r.filter(([, b]) => b > MAX_UNIT).map(([a, b]) => [Math.max(a, MAX_UNIT + 1), b]);
  const size = r.reduce((n, [a, b]) => n + Math.min(b, MAX_UNIT) - a + 1, 0);
  if (size <= SMALL_SET) {
    const orbits = orbitTable();
    for (const [a, b] of r) for (let c = a; c <= Math.min(b, MAX_UNIT); c++) for (const d of orbits.get(canon[c])!) out.push([d, d]);
  } else {
    const keys = new Set<number>();
    for (const [a, b] of r) for (let c = a; c <= Math.min(b, MAX_UNIT); c++) keys.add(canon[c]);
    for (let c = 0; c <= MAX_UNIT; c++) if (keys.has(canon[c])) out.push([c, c]);
  }
  const set = normalize(out);
  folded.set(key, set);
  return set;
}

/** ECMA-262 Canonicalize(ch) for `i` without `u`: toUpperCase, unless that is not one unit or maps a non-ASCII unit to ASCII. */
function canonTable(): Uint16Array {
  if (CANON) return CANON;
  const t = new Uint16Array(MAX_UNIT + 1);
  for (let c = 0; c <= MAX_UNIT; c++) {
    const u = String.fromCharCode(c).toUpperCase();
    t[c] = u.length !== 1 || (c >= 128 && u.charCodeAt(0) < 128) ? c : u.charCodeAt(0);
  }
  return (CANON = t);
}

/** Canonical unit → the units that canonicalize to it. */
function orbitTable(): Map<number, number[]> {
  if (ORBITS) return ORBITS;
  const canon = canonTable();
  const m = new Map<number, number[]>();
  for (let c = 0; c <= MAX_UNIT; c++) {
    const list = m.get(canon[c]);
    if (list) list.push(c);
    else m.set(canon[c], [c]);
  }
  return (ORBITS = m);
}
