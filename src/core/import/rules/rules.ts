// States and behaviors of imported samples, defined by the user:
//   state    = a field's value | a regex capture on the prompt | the prompt's template id | one state
//   behavior = the first matching rule of an ordered list (tool-call sequence, tools used, response
//              regex, length in tokens, first action), else the fallback label.
// Specs are plain JSON (the CLI's --states / --behaviors files, the lab's editor); parse*Spec
// validates them and names each bad field. Names are made safe for metric keys (no "/").
import { errorText, isObject } from '../../unknown';
import { evaluate, parseExpression, type Expr, type FieldTable } from '../../gates/index';
import { hash8 } from '../formats/common';
import { compileRuleRegex, type RegexEngine, type RuleRegex } from './regex';
import { regexSyntaxError } from './regex-syntax';
import { firstAction, tokensOf } from '../measure/tokens';
import type { ImportedSample } from '../types';

export type StatesSpec =
  | { kind: 'single'; name?: string }
  | { kind: 'field'; field: string; missing?: string }
  | { kind: 'regex'; pattern: string; flags?: string; missing?: string }
  | { kind: 'template'; chars?: number }
  /** Discovered from the prompts (the kind of request): src/core/import/discover/. */
  | { kind: 'discover' };

export interface BehaviorRule {
  label: string;
  /** Tool names exactly in this order (and no others). */
  toolSeq?: string[];
  /** Each of these tools is called at least once. */
  toolsInclude?: string[];
  /** Regex tested on the response text. */
  responseRegex?: string;
  /** Inclusive bounds on the response length in tokens. */
  minTokens?: number;
  maxTokens?: number;
  /** First tool called, or the first response token when no tool is called. */
  firstAction?: string;
  /** A condition in the gates' rule language over RULE_FIELDS, e.g. `reward > 0 && response_len < 50`. */
  when?: string;
}

/** Fields a behavior rule's `when` expression may read (the gates' expression language). */
export const RULE_FIELDS = {
  response_len: { type: 'number', doc: 'Response length in tokens (the log\'s tokens, else words and punctuation)', range: '≥ 0' },
  tools: { type: 'string[]', doc: 'Tool names called, in order', range: 'e.g. ["search", "answer"]' },
  n_tools: { type: 'number', doc: 'Number of tool calls', range: '≥ 0' },
  first_action: { type: 'string', doc: 'First tool called, else the first response token', range: 'a name' },
  response: { type: 'string', doc: 'The response text', range: 'text' },
  reward: { type: 'number', doc: 'The log\'s reward (NaN when not judged)', range: 'any' },
  step: { type: 'number', doc: 'Training step of the sample', range: '≥ 0' },
} as const satisfies FieldTable;

export interface BehaviorRuleSet {
  rules: BehaviorRule[];
  /**
   * Label of a sample no rule matches ("invalid" = outside the support, as the lab's invalid
   * responses). Absent: the behaviors of those samples are discovered (src/core/import/discover/).
   */
  fallback?: string;
  /** Use the log's own `behavior` field (generic JSONL) when present, before the rules. */
  useLogLabel?: boolean;
}

export const MAX_STATES = 24;

/** A state or behavior name usable inside a metric key. */
export function safeName(s: string): string {
  const t = s.replace(/[/\s]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 48);
  return t || '_';
}

/**
 * Names for labels, one per label: `safeName` folds whitespace and `/` (a metric key's separator),
 * so `x y`, `x_y` and `x/y` would become one state or behavior with their samples pooled. The first
 * label keeps the plain name; a later one that folds onto a taken name gets `~2`, `~3`, … and is
 * listed in `renamed` (the import says so).
 */
export class DistinctNames {
  #byLabel = new Map<string, string>();
  #taken = new Map<string, string>();
  readonly renamed: { label: string; name: string; clashesWith: string }[] = [];

  name(label: string): string {
    const known = this.#byLabel.get(label);
    if (known !== undefined) return known;
    const base = safeName(label);
    let name = base;
    for (let k = 2; this.#taken.has(name); k++) name = `${base}~${k}`;
    if (name !== base) this.renamed.push({ label, name, clashesWith: this.#taken.get(base)! });
    this.#byLabel.set(label, name);
    this.#taken.set(name, label);
    return name;
  }

  /** One line per renamed label, for the import's issues. */
  describe(what: 'state' | 'behavior'): string[] {
    return this.renamed.map((r) => `${what} ${JSON.stringify(r.label)} is named ${JSON.stringify(r.name)}: ${JSON.stringify(r.clashesWith)} already has the name ${JSON.stringify(safeName(r.label))} (whitespace and "/" become "_"); the two are kept apart`);
  }
}

export function parseStatesSpec(x: unknown): StatesSpec {
  if (!isObject(x)) throw new Error('states: expected an object like {"kind": "field", "field": "state"}');
  const errs: string[] = [];
  const str = (k: string, req: boolean) => {
    if (x[k] === undefined && !req) return;
    if (typeof x[k] !== 'string' || !(x[k] as string).length) errs.push(`states.${k}: expected a non-empty string`);
  };
  switch (x.kind) {
    case 'single':
      str('name', false);
      break;
    case 'field':
      str('field', true);
      str('missing', false);
      break;
    case 'regex': {
      str('pattern', true);
      str('missing', false);
      if (x.flags !== undefined && (typeof x.flags !== 'string' || !/^[imsu]*$/.test(x.flags))) errs.push('states.flags: expected some of "imsu"');
      if (typeof x.pattern === 'string') {
        const e = regexSyntaxError(x.pattern, typeof x.flags === 'string' ? x.flags : '');
        if (e) errs.push(`states.pattern: invalid regex (${e})`);
      }
      break;
    }
    case 'discover':
      break;
    case 'template':
      if (x.chars !== undefined && !(Number.isInteger(x.chars) && (x.chars as number) >= 8 && (x.chars as number) <= 4096)) errs.push('states.chars: expected an integer in [8, 4096]');
      break;
    default:
      errs.push(`states.kind: expected "single", "field", "regex", "template" or "discover", got ${JSON.stringify(x.kind)}`);
  }
  if (errs.length) throw new Error(errs.join('; '));
  return x as unknown as StatesSpec;
}

const RULE_KEYS = new Set(['label', 'toolSeq', 'toolsInclude', 'responseRegex', 'minTokens', 'maxTokens', 'firstAction', 'when']);

export function parseBehaviorRuleSet(x: unknown): BehaviorRuleSet {
  if (!isObject(x)) throw new Error('behaviors: expected an object like {"rules": [...], "fallback": "other"}');
  const errs: string[] = [];
  if (!Array.isArray(x.rules)) errs.push('behaviors.rules: expected a list of rules');
  if (x.fallback !== undefined && (typeof x.fallback !== 'string' || !x.fallback.length)) errs.push('behaviors.fallback: expected a non-empty label (or none: the behaviors no rule names are discovered)');
  if (x.useLogLabel !== undefined && typeof x.useLogLabel !== 'boolean') errs.push('behaviors.useLogLabel: expected true or false');
  (Array.isArray(x.rules) ? x.rules : []).forEach((r: unknown, i: number) => {
    const at = `behaviors.rules[${i}]`;
    if (!isObject(r)) return errs.push(`${at}: expected an object`);
    for (const k of Object.keys(r)) if (!RULE_KEYS.has(k)) errs.push(`${at}.${k}: unknown condition (use ${[...RULE_KEYS].slice(1).join(', ')})`);
    if (typeof r.label !== 'string' || !r.label.length) errs.push(`${at}.label: expected a non-empty label`);
    for (const k of ['toolSeq', 'toolsInclude'])
      if (r[k] !== undefined && !(Array.isArray(r[k]) && (r[k] as unknown[]).every((t) => typeof t === 'string'))) errs.push(`${at}.${k}: expected a list of tool names`);
    if (r.responseRegex !== undefined) {
      if (typeof r.responseRegex !== 'string') errs.push(`${at}.responseRegex: expected a string`);
      else {
        const e = regexSyntaxError(r.responseRegex);
        if (e) errs.push(`${at}.responseRegex: invalid regex (${e})`);
      }
    }
    for (const k of ['minTokens', 'maxTokens'])
      if (r[k] !== undefined && !(Number.isInteger(r[k]) && (r[k] as number) >= 0)) errs.push(`${at}.${k}: expected a non-negative integer`);
    if (r.firstAction !== undefined && typeof r.firstAction !== 'string') errs.push(`${at}.firstAction: expected a string`);
    if (r.when !== undefined) {
      if (typeof r.when !== 'string') errs.push(`${at}.when: expected an expression (text)`);
      else {
        const p = parseExpression(r.when, RULE_FIELDS, 'boolean');
        if (!p.ok) errs.push(`${at}.when, character ${p.error.pos + 1}: ${p.error.reason}`);
      }
    }
    if (Object.keys(r).filter((k) => k !== 'label').length === 0) errs.push(`${at}: a rule needs at least one condition`);
  });
  if (errs.length) throw new Error(errs.join('; '));
  return x as unknown as BehaviorRuleSet;
}

/** Compiled state rule: sample → state name. Keeps the first MAX_STATES names; later ones map to "other". */
export class StateClassifier {
  private re: RuleRegex | null;
  private seen = new Map<string, string>();
  /** The state names, distinct per raw key (labels that differ only in whitespace or "/" stay apart). */
  readonly names = new DistinctNames();
  /** Template id → an example prompt (first 200 chars), for the preview. */
  readonly examples = new Map<string, string>();
  /** `regex`: the linear-time engine a regex state runs on (src/io/re2.ts in the shells). */
  constructor(readonly spec: StatesSpec, regex?: RegexEngine) {
    this.re = spec.kind === 'regex' ? compileRuleRegex(regex, spec.pattern, spec.flags ?? '', 'states.pattern') : null;
  }

  private raw(s: ImportedSample): string {
    const spec = this.spec;
    switch (spec.kind) {
      case 'single':
        return spec.name ?? 'all';
      case 'field': {
        // the record's own fields only: "toString" is no field of a record that has none by that name
        const v = spec.field === 'state' && s.state !== null ? s.state : Object.hasOwn(s.fields, spec.field) ? s.fields[spec.field] : undefined;
        return v === undefined || v === null || v === '' ? (spec.missing ?? 'unknown') : String(v);
      }
      case 'regex': {
        const m = this.re!.find(s.prompt, s);
        const v = m ? (m.named.state ?? m.first ?? m.text) : undefined;
        return v === undefined || v === '' ? (spec.missing ?? 'unknown') : v;
      }
      case 'discover':
        throw new Error('states: discovered states are labelled when their step is complete (src/core/import/discover/), not one sample at a time');
      case 'template': {
        // the prompt's fixed part: numbers and quoted strings are the variable slots
        const norm = s.prompt.replace(/"[^"\n]*"|'[^'\n]*'/g, '""').replace(/\d+(\.\d+)?/g, '#').replace(/\s+/g, ' ').trim().slice(0, spec.chars ?? 200);
        const id = `tpl-${hash8(norm).slice(0, 6)}`;
        if (!this.examples.has(id)) this.examples.set(id, s.prompt.slice(0, 200));
        return id;
      }
    }
  }

  classify(s: ImportedSample): string {
    const raw = this.raw(s);
    const known = this.seen.get(raw);
    if (known) return known;
    const name = this.seen.size < MAX_STATES ? this.names.name(raw) : 'other';
    this.seen.set(raw, name);
    return name;
  }
}

export interface Classified {
  behavior: string;
  /** Index of the matching rule; -1 = the log's own label, null = fallback (unclassified). */
  rule: number | null;
}

/** What a sample no rule names is called while it waits for discovery (never written to a frame). */
export const UNLABELED_RULE = 'unclassified';

export class BehaviorClassifier {
  private res: (RuleRegex | null)[];
  private exprs: (Expr | null)[];
  /** The label of a sample no rule matches; UNLABELED_RULE when the rules leave it to discovery. */
  readonly fallback: string;
  /** Behavior names, distinct per label (labels that differ only in whitespace or "/" stay apart). */
  readonly names = new DistinctNames();
  /** `regex`: the linear-time engine response regexes run on (src/io/re2.ts in the shells). */
  constructor(readonly spec: BehaviorRuleSet, regex?: RegexEngine) {
    this.res = spec.rules.map((r, i) => (r.responseRegex !== undefined ? compileRuleRegex(regex, r.responseRegex, '', `behaviors.rules[${i}].responseRegex (${r.label})`) : null));
    this.exprs = spec.rules.map((r) => {
      if (r.when === undefined) return null;
      const p = parseExpression(r.when, RULE_FIELDS, 'boolean');
      if (!p.ok) throw new Error(`behaviors: when: ${p.error.reason}`);
      return p.expr;
    });
    // rule labels first (their order is the legend's), then the fallback
    for (const r of spec.rules) this.names.name(r.label);
    this.fallback = spec.fallback === undefined ? UNLABELED_RULE : this.names.name(spec.fallback);
  }

  /** True when the rules leave the samples they do not name to discovery (no fallback). */
  get discovers(): boolean {
    return this.spec.fallback === undefined;
  }

  /** Names in rule order, then the fallback (for a stable legend order). */
  labels(): string[] {
    const rules = this.spec.rules.map((r) => this.names.name(r.label));
    return [...new Set(this.discovers ? rules : [...rules, this.fallback])];
  }

  classify(s: ImportedSample): Classified {
    if (this.spec.useLogLabel && s.behavior !== null) return { behavior: this.names.name(s.behavior), rule: -1 };
    let len: number | null = null;
    for (let i = 0; i < this.spec.rules.length; i++) {
      const r = this.spec.rules[i];
      if (r.toolSeq && !(r.toolSeq.length === s.toolCalls.length && r.toolSeq.every((t, j) => t === s.toolCalls[j]))) continue;
      if (r.toolsInclude && !r.toolsInclude.every((t) => s.toolCalls.includes(t))) continue;
      if (r.firstAction !== undefined && firstAction(s) !== r.firstAction) continue;
      if (r.minTokens !== undefined || r.maxTokens !== undefined) {
        len ??= tokensOf(s).length;
        if (r.minTokens !== undefined && len < r.minTokens) continue;
        if (r.maxTokens !== undefined && len > r.maxTokens) continue;
      }
      const re = this.res[i];
      if (re && !re.find(s.response, s)) continue;
      const ex = this.exprs[i];
      if (ex && evaluate(ex, ruleRecord(s, len ?? (len = tokensOf(s).length))) !== true) continue;
      return { behavior: this.names.name(r.label), rule: i };
    }
    return { behavior: this.fallback, rule: null };
  }
}

function ruleRecord(s: ImportedSample, len: number): Record<string, unknown> {
  return { response_len: len, tools: s.toolCalls, n_tools: s.toolCalls.length, first_action: firstAction(s), response: s.response, reward: s.reward ?? NaN, step: s.step };
}
