// gateToPython: a gate as a Python 3 module (standard library only) that decides exactly as the lab.
// The gate is compiled with the lab's own compiler (compileGate: the same typed AST the loop
// evaluates) and each rule's condition is printed from that AST (py-expr.ts); the decision, the
// judging order and the number semantics are the runtime every module carries (py-decide.ts,
// py-runtime.ts, py-pow.ts). Pure: text in, source out; the caller names the lab version.
import { compileGate } from '../compile';
import { SAMPLE_FIELDS } from '../fields';
import { gateText, STD_EPS, type Gate } from '../gate';
import type { FieldTable } from '../types';
import { PY_DECIDE } from './py-decide';
import { PyPrinter, pyFloat, pyString } from './py-expr';
import { PY_POW } from './py-pow';
import { PY_NUMBERS, PY_RECORDS } from './py-runtime';

export interface PythonExportOptions {
  /** The lab version that writes the module (package version and commit). */
  labVersion: string;
}

/** A comment line's text: control characters, line and paragraph separators and lone surrogates escaped. */
function commentText(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]|[\ud800-\udfff]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function header(gate: Gate, o: PythonExportOptions): string {
  const rules = gate.rules.map((r, i) => `#   ${i + 1}. ${commentText(r.when)} => ${commentText(r.then)}${r.label ? `   # ${commentText(r.label)}` : ''}`);
  return [
    '# A gate of Invariant Lab, exported as a Python 3 module (standard library only).',
    `# Written by ${commentText(o.labVersion)}. Export it again from the lab rather than editing it:`,
    '# the lab proves the export decides as it does, not an edited copy.',
    '#',
    '# The rules, in order (the first rule whose condition holds decides; none: the sample is dropped):',
    ...rules,
    '#',
    '# decide(samples, session_keys=None, judged=None) gives one decision per sample (see its doc).',
    '# python3 THIS_FILE < input.json prints the decisions of {"samples", "session_keys", "judged"}.',
    '"""An Invariant Lab gate: decide(samples, session_keys=None, judged=None); GATE_TEXT, FIELDS, READS, RULES, LAB_VERSION."""',
    'import json',
    'import math',
    'import numbers',
    'import re',
    'import struct',
    'import sys',
  ].join('\n');
}

function fieldTable(fields: FieldTable): string {
  const rows = Object.entries(fields).map(
    ([name, f]) => `    ${pyString(name)}: {"type": ${pyString(f.type)}, "meaning": ${pyString(f.doc)}, "range": ${pyString(f.range)}},`,
  );
  return ['# The fields a sample may carry (the rule language\'s field table): type, meaning, range.', 'FIELDS = {', ...rows, '}'].join('\n');
}

function constants(text: string, gate: Gate, o: PythonExportOptions): string {
  const rules = gate.rules.map((r) => `    {"when": ${pyString(r.when)}, "then": ${pyString(r.then)}, "label": ${pyString(r.label)}},`);
  return [
    `LAB_VERSION = ${pyString(o.labVersion)}`,
    '# The gate as it was exported, and its canonical text (one rule per line).',
    `GATE_TEXT = ${pyString(text)}`,
    `CANONICAL_TEXT = ${pyString(gateText(gate))}`,
    '# The rules as the lab parsed them.',
    'RULES = [',
    ...rules,
    ']',
    '# The fields this gate reads (its conditions, and the advantage terms of its decisions).',
    `READS = frozenset([${[...gate.reads].sort().map(pyString).join(', ')}])`,
    fieldTable(SAMPLE_FIELDS),
    `_STD_EPS = ${pyFloat(STD_EPS)}`,
    `_STD_EPS_TEXT = ${pyString(String(STD_EPS))}`,
  ].join('\n');
}

function conditions(gate: Gate): string {
  const out: string[] = ['# The conditions, printed from the typed syntax tree the lab evaluates.'];
  const table: string[] = [];
  gate.rules.forEach((r, i) => {
    const p = new PyPrinter(`_when_${i}_part`);
    const code = p.print(r.expr);
    out.push(...p.defs, `def _when_${i}(r):\n    # ${commentText(r.when)}\n    return ${code}\n`);
    const rl = r.decision === 'mask1' && r.rl ? `${pyString(r.rl.source)}, ${pyFloat(r.rl.weight)}` : 'None, 0.0';
    const opd = r.decision === 'mask1' && r.opd !== null ? pyFloat(r.opd) : 'None';
    table.push(`    (_when_${i}, ${pyString(r.decision)}, ${rl}, ${opd}),`);
  });
  return [...out, '', '# Per rule: condition, decision, RL source, RL weight, OPD weight.', '_RULES = (', ...table, ')'].join('\n');
}

/** The Python module of a gate's text (throws the text's GateError when it is not a gate). */
export function gateToPython(text: string, o: PythonExportOptions): string {
  const gate = compileGate(text);
  return [header(gate, o), constants(text, gate, o), PY_NUMBERS, PY_POW, PY_RECORDS, conditions(gate), PY_DECIDE].join('\n\n\n');
}
