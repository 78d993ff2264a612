// Bounded work on user text (issue 16 §2): each cap acts before the expensive step, and the
// nesting cap, error positions and NaN equality are as documented. Asserted on counts, positions
// and messages, never on wall time.
import { describe, expect, it } from 'vitest';
import { checkGateDraft } from '../../ui/gates/editor';
import { MAX_DEPTH } from './syntax';
import { checkGate, compileExpression, evaluate, ExprError, gateParses, MAX_GATE_CHARS, MAX_RULES, nearestName, SAMPLE_FIELDS, type FieldTable } from './index';
import { MAX_CHARS, MAX_TOKENS, scanTokens, tokenize } from './tokens';

const F: FieldTable = { score: { type: 'number', doc: '', range: '' }, ok: { type: 'boolean', doc: '', range: '' } };
const err = (src: string): ExprError => {
  try {
    compileExpression(src, F);
  } catch (e) {
    if (e instanceof ExprError) return e;
    throw e;
  }
  throw new Error(`accepted: ${src.slice(0, 40)}`);
};

describe('caps come before the expensive step', () => {
  it('a text over the character cap is refused unread (not tokenized): the message counts characters, not tokens', () => {
    const e = err('a'.repeat(1_000_000));
    expect(e.reason).toBe(`text too long (1000000 characters; at most ${MAX_CHARS})`);
    expect([e.pos, e.end]).toEqual([0, 1_000_000]);
    // one character over the cap: the same refusal; at the cap, a name of MAX_CHARS characters is read
    expect(err('a'.repeat(MAX_CHARS + 1)).reason).toMatch(/^text too long/);
    expect(err('a'.repeat(MAX_CHARS)).reason).toMatch(/^unknown field "a+"$/);
    // the editor's scan reads at most MAX_CHARS characters of a line
    expect(scanTokens('a '.repeat(MAX_CHARS)).at(-1)!.pos).toBe(MAX_CHARS);
  });

  it('tokenizing stops at the first token past the cap, at that token', () => {
    const src = '1+'.repeat(MAX_TOKENS) + '1';
    expect(() => tokenize(src)).toThrowError(ExprError);
    const e = err(src);
    expect(e.reason).toBe(`expression too long (more than ${MAX_TOKENS} tokens)`);
    expect(e.pos).toBe(MAX_TOKENS); // every token is one character: the (MAX_TOKENS + 1)th starts there
    expect(tokenize('1+'.repeat(MAX_TOKENS / 2 - 1) + '1')).toHaveLength(MAX_TOKENS); // MAX_TOKENS − 1 tokens and the end
  });

  it('"did you mean" is not computed for a name too long to be a typo', () => {
    const names = Object.keys(SAMPLE_FIELDS);
    expect(nearestName('socre', names)).toBe('score');
    expect(nearestName('s'.repeat(65), names)).toBeNull();
    expect(nearestName('x'.repeat(1_000_000), names)).toBeNull();
    expect(err('q'.repeat(MAX_CHARS)).reason).not.toContain('did you mean');
  });

  it('a gate text over the cap is refused unread, and checking stops after MAX_RULES rules', () => {
    const huge = checkGate('x'.repeat(MAX_GATE_CHARS + 1));
    expect(huge.errors.map((e) => e.reason)).toEqual([`gate too long (${MAX_GATE_CHARS + 1} characters; at most ${MAX_GATE_CHARS})`]);
    const many = checkGate(Array.from({ length: 1000 }, (_, i) => `turn == ${i} => drop`).join('\n'));
    expect(many.lines).toHaveLength(MAX_RULES + 1); // 200 rules read, the 201st refused, the rest unread
    expect(many.errors.map((e) => [e.rule, e.reason])).toEqual([[MAX_RULES, `too many rules (more than ${MAX_RULES}); the rest is not checked`]]);
  });

  it('the editor: 10,000 pasted lines are refused by the setting limit before any rule is parsed, with a message', () => {
    const pasted = 'votes_pos > 0 => drop\n'.repeat(10_000);
    const before = gateParses();
    const r = checkGateDraft(pasted);
    expect(gateParses()).toBe(before);
    expect(r.gate).toBeNull();
    expect(r.problems.map((p) => p.reason)).toEqual([`${pasted.length} characters is over the limit of 2000: shorten the gate (nothing was checked)`]);
    // the import page's replay (no setting limit): bounded by the gate cap
    expect(checkGateDraft(pasted, false).problems.map((p) => p.reason)).toEqual([`${pasted.length} characters is over the limit of ${MAX_GATE_CHARS}: shorten the gate (nothing was checked)`]);
    // a draft that compiles is parsed once: Apply's setting check finds it compiled
    const ok = `turn == ${before} => drop\ntrue => mask1 rl  \n`;
    const n = gateParses();
    expect(checkGateDraft(ok).gate).not.toBeNull();
    expect(gateParses()).toBe(n + 1);
  });
});

describe('nesting, positions and NaN, as documented', () => {
  it(`the nesting cap counts one level per parenthesis, bracket or call: ${MAX_DEPTH} levels parse, ${MAX_DEPTH + 1} do not`, () => {
    const parens = (n: number) => '('.repeat(n) + 'score' + ')'.repeat(n) + ' > 0';
    expect(evaluate(compileExpression(parens(MAX_DEPTH), F), { score: 1 })).toBe(true);
    const e = err(parens(MAX_DEPTH + 1));
    expect(e.reason).toBe(`expression nested too deeply (more than ${MAX_DEPTH} levels of parentheses and brackets)`);
    expect(e.pos).toBe(MAX_DEPTH); // at the opening parenthesis past the cap
    const calls = (n: number) => 'abs('.repeat(n) + 'score' + ')'.repeat(n) + ' > 0';
    expect(evaluate(compileExpression(calls(MAX_DEPTH), F), { score: -1 })).toBe(true);
    expect(err(calls(MAX_DEPTH + 1)).pos).toBe(4 * MAX_DEPTH + 3);
    // prefix operators and ** chains are not nesting: bounded by the token cap only
    expect(evaluate(compileExpression('- '.repeat(900) + '1 > 0', F), {})).toBe(true);
  });

  it('an unknown name inside parentheses is reported at the name, not at the (', () => {
    const e = err('((socre)) > 0');
    expect([e.pos, e.end]).toEqual([2, 7]);
    expect(e.reason).toBe('unknown field "socre"; did you mean "score"?');
    expect(err('ok && (1 + (scor * 2) > 0)').pos).toBe(12);
  });

  it('NaN: == and in and count agree (NaN equals nothing, so it is in no list)', () => {
    const v = (src: string) => evaluate(compileExpression(src, F), {});
    expect(v('0/0 == 0/0')).toBe(false);
    expect(v('0/0 != 0/0')).toBe(true);
    expect(v('0/0 in [0/0]')).toBe(false);
    expect(v('0/0 in [1, 0/0, 2]')).toBe(false);
    expect(v('count([0/0, 0/0], 0/0)')).toBe(0);
    expect(v('1 in [0/0, 1]')).toBe(true);
  });
});
