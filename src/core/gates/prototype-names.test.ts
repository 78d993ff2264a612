// Names that are not the language's (issue 16 §1): every gate entry point is fed the names of
// Object.prototype (and __proto__) where a decision, an advantage source, a field or a function
// stands, and must refuse each with a clear error naming it — never accept it through an `in` check.
import fc from 'fast-check';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gateSetting, readGateFile } from '../../cli/gate-args';
import { checkGateDraft } from '../../ui/gates/editor';
import { checkField, configFromQuery, encodeQueryValue, makeConfig } from '../config';
import { BUNDLE_SCHEMA, BUNDLE_SCHEMA_VERSION, parseBundle } from '../experiment/bundle';
import { parseExperimentSpec } from '../experiment/spec';
import { parseDecision, parseRuleLine } from './gate';
import { compileExpression, compileGate, compileGateJson, evaluate, GateError, SAMPLE_FIELDS } from './index';

const NAMES = [...new Set([...Object.getOwnPropertyNames(Object.prototype), '__proto__', 'prototype', 'hasOwnProperty', 'valueOf', 'toString'])];
const name = fc.constantFrom(...NAMES);
/** Rules with a foreign name where a decision, a source, a weighted source, a field or a function stands. */
const rule = fc.tuple(name, fc.integer({ min: 0, max: 4 })).map(([n, where]) => {
  const rules = [`true => ${n}`, `true => mask1 ${n}`, `true => mask1 0.5*${n}`, `${n} => drop`, `${n}(1) > 0 => drop`];
  return { n, line: rules[where] };
});
const tmp = mkdtempSync(join(tmpdir(), 'gate-proto-'));

/** The error text names the foreign name and says what it is not. */
const clear = (msg: string, n: string) => {
  expect(msg).toContain(`"${n}"`);
  expect(msg).toMatch(/unknown (decision|advantage source|field|function)/);
};
const thrown = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('accepted');
};

describe('names of Object.prototype at every gate entry point', () => {
  it('the core parsers: a gate text, one rule line, a decision alone, a JSON gate, an expression', () => {
    fc.assert(
      fc.property(rule, ({ n, line }) => {
        clear(thrown(() => compileGate(line)), n);
        expect(() => parseRuleLine(line)).toThrow(GateError);
        clear(thrown(() => compileGateJson({ rules: [line] })), n);
        const [when, then] = line.split(' => ');
        clear(thrown(() => compileGateJson({ rules: [{ when, then }] })), n);
      }),
      { numRuns: 300, seed: 16 },
    );
    for (const n of NAMES) {
      clear(thrown(() => parseDecision(n)), n);
      clear(thrown(() => parseDecision(`mask1 rl + ${n}`)), n);
      clear(thrown(() => compileExpression(`${n} > 0`, SAMPLE_FIELDS)), n);
    }
    // a JSON gate whose own key is "__proto__" (JSON.parse makes it an own property)
    expect(() => compileGateJson(JSON.parse('{"rules": ["true => drop"], "__proto__": {"x": 1}}'))).toThrow(/unknown key "__proto__"/);
    expect(() => compileGateJson(JSON.parse('{"rules": [{"when": "true", "then": "drop", "__proto__": 1}]}'))).toThrow(/unknown key "__proto__"/);
  });

  it('evaluation reads only own properties of a record (a field named like a prototype key is missing, not inherited)', () => {
    const e = compileExpression('score > 0', SAMPLE_FIELDS);
    const rec = Object.create({ score: 1 }) as Record<string, unknown>;
    expect(() => evaluate(e, rec)).toThrow(/field "score" is missing/);
  });

  it('the config setting, the URL, experiment variants and bundles', () => {
    fc.assert(
      fc.property(rule, ({ n, line }) => {
        clear(checkField('gate', line) ?? 'accepted', n);
        expect(() => makeConfig({ gate: line })).toThrow(/^config\.gate: rule 1/);
        const url = configFromQuery(`gate=${encodeQueryValue(line)}`);
        expect(url.config.gate).toBe('');
        clear(url.errors.map((er) => er.message).join('; '), n);
        const spec = { version: 1, name: 'p', base: {}, variants: [{ name: 'a', patch: { gate: line } }], seeds: [1], steps: 1 };
        clear(thrown(() => parseExperimentSpec(spec)), n);
        clear(thrown(() => parseBundle({ schema: BUNDLE_SCHEMA, schemaVersion: BUNDLE_SCHEMA_VERSION, codeVersion: 'x', spec, runs: [] })), n);
      }),
      { numRuns: 120, seed: 17 },
    );
  });

  it('the command line (--gate-rule, --gate FILE, import --gate) and the editor', () => {
    for (const n of NAMES) {
      for (const line of [`true => ${n}`, `true => mask1 ${n}`]) {
        clear(thrown(() => gateSetting([line])), n);
        const file = join(tmp, 'g.txt');
        writeFileSync(file, `${line}\n`);
        clear(thrown(() => readGateFile(file)), n);
        writeFileSync(file, JSON.stringify({ rules: [line] }));
        clear(thrown(() => readGateFile(file)), n);
        const draft = checkGateDraft(line);
        expect(draft.gate).toBeNull();
        clear(draft.problems.map((p) => p.reason).join('; '), n);
      }
    }
  });
});
