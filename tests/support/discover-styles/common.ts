// What the styled corpora (tests/support/discover-styles.ts) share: a seeded picker, the lines a
// style writes with the truth of each, the template's spreading schedule and the step its truth
// alarm belongs to, and the round trip through the lab's real import (src/core/import/read/pipeline.ts)
// that makes each truth's `sample` exactly what the importer reads from the written files.
import { importSamples } from '../../../src/core/import/read/pipeline';
import { memorySource } from '../../../src/core/import/sources';
import type { ImportedSample } from '../../../src/core/import/types';
import type { TruthSample } from '../discover-corpus';

export type StyleFormat = 'verl' | 'openclaw' | 'jsonl';

export interface StyleOptions {
  seed: number;
  steps: number;
  /** Samples a step (verl / JSONL lines, OpenClaw turns). */
  perStep: number;
  /** Share of noise samples (default 0.06). */
  noise?: number;
  /** The template's share of the first kind it takes at the last step (default 0.8; 0: no template). */
  templateEnd?: number;
  /** The chat template a style that writes chat prompts renders them with (reasoning: discover-styles/reasoning.ts; default 'qwen'). */
  template?: ChatTemplate;
}

/** Chat templates a styled corpus can be written under: the same draws, another way of writing them. */
export const CHAT_TEMPLATES = ['qwen', 'deepseek', 'r1zero', 'phi3'] as const;
export type ChatTemplate = (typeof CHAT_TEMPLATES)[number];

export interface StyledTruth extends TruthSample {
  /** Language of the response ('en', 'zh', 'ru', 'ar', 'hi'). */
  lang: string;
  /** Agent turns: what the turn follows ('first', 'after-tool', 'after-user'). */
  facet?: string;
}

export interface StyledCorpus {
  truth: StyledTruth[];
  /** The run's files as its trainer writes them, by path. */
  files: Map<string, string>;
  format: StyleFormat;
  /** The truth of the template alarm: the first step at which the template answers over half of two or more kinds (null: it never does). */
  templateAlarmStep: number | null;
  /** The spreading template's behavior name (null when the corpus has none). */
  templateBehavior: string | null;
}

/** One line a style writes: a record, with its truth when the line is a sample (an OpenClaw PRM line is not). */
export interface Written {
  file: string;
  step: number;
  record: Record<string, unknown>;
  truth?: Omit<StyledTruth, 'sample'>;
}

export const TEMPLATE = 'template';
export const NOISE = 'noise';

import { Gen } from '../../../src/bench/reasoning-phrases';

export { Gen };

/** `{a}` slots of a phrasing filled from `vars` (an unknown slot is a bug in a phrasing). */
export function fill(text: string, vars: Readonly<Record<string, string | number>>): string {
  return text.replace(/\{(\w+)\}/g, (_, k: string) => {
    if (!(k in vars)) throw new Error(`phrasing slot {${k}} has no value: ${text}`);
    return String(vars[k]);
  });
}

/**
 * The template's share of each kind at a step: the kinds are taken one after another (a seeded
 * order, the k-th starting 12 % of the run after the one before), each growing linearly to `end`
 * at the last step.
 */
export function templateSchedule(g: Gen, kinds: readonly string[], steps: number, end: number): (kind: string, step: number) => number {
  const order = g.shuffled(kinds);
  return (kind, step) => {
    if (end <= 0) return 0;
    const p = steps > 1 ? (step - 1) / (steps - 1) : 1;
    const start = 0.12 * order.indexOf(kind);
    return p <= start ? 0 : (end * (p - start)) / (1 - start);
  };
}

/** The first step at which `behavior` answers over half of the samples of two or more kinds (noise counted in a kind's samples, as the measure does). */
export function alarmStep(truth: readonly Omit<StyledTruth, 'sample'>[], steps: readonly number[], behavior: string): number | null {
  const byStep = new Map<number, Map<string, [number, number]>>();
  truth.forEach((t, i) => {
    const cells = byStep.get(steps[i]) ?? new Map<string, [number, number]>();
    byStep.set(steps[i], cells);
    const c = cells.get(t.state) ?? [0, 0];
    c[0] += t.behavior === behavior ? 1 : 0;
    c[1]++;
    cells.set(t.state, c);
  });
  for (const step of [...byStep.keys()].sort((a, b) => a - b)) {
    const over = [...byStep.get(step)!.values()].filter(([n, all]) => n / all > 0.5).length;
    if (over >= 2) return step;
  }
  return null;
}

/** The written lines as files (one JSON object a line, in order). */
export function filesOf(written: readonly Written[]): Map<string, string> {
  const parts = new Map<string, string[]>();
  for (const w of written) {
    const p = parts.get(w.file) ?? [];
    parts.set(w.file, p);
    p.push(JSON.stringify(w.record));
  }
  return new Map([...parts].map(([f, lines]) => [f, `${lines.join('\n')}\n`]));
}

/**
 * Reads the files back through the lab's import and pairs each imported sample with the truth of
 * its line: the truths are exactly as many as the samples, and every sample has one.
 */
export async function importedTruth(written: readonly Written[], files: Map<string, string>, format: StyleFormat): Promise<StyledTruth[]> {
  const byLine = new Map<string, Omit<StyledTruth, 'sample'>>();
  const lineNo = new Map<string, number>();
  for (const w of written) {
    const n = (lineNo.get(w.file) ?? 0) + 1;
    lineNo.set(w.file, n);
    if (w.truth) byLine.set(`${w.file}\u0000${n}`, w.truth);
  }
  const samples: ImportedSample[] = [];
  const result = await importSamples([...files].map(([name, text]) => memorySource(name, text)), { format }, (s) => samples.push(s));
  if (result.issuesTotal) throw new Error(`styled corpus: the import reported ${result.issuesTotal} issues, first: ${result.issues[0]?.file}:${result.issues[0]?.line} ${result.issues[0]?.message}`);
  if (samples.length !== byLine.size) throw new Error(`styled corpus: ${byLine.size} samples written, ${samples.length} imported`);
  return samples.map((sample) => {
    const t = byLine.get(`${sample.file}\u0000${sample.line}`);
    if (!t) throw new Error(`styled corpus: no truth for ${sample.file}:${sample.line}`);
    return { sample, ...t };
  });
}

/** A style's seeded choices and its template's schedule over `kinds`. */
export function styleStart(o: StyleOptions, kinds: readonly string[]): { g: Gen; templateOn: boolean; share: (kind: string, step: number) => number } {
  const g = new Gen(o.seed);
  const end = o.templateEnd ?? 0.8;
  return { g, templateOn: end > 0, share: templateSchedule(g, kinds, o.steps, end) };
}

/** Written lines to a corpus: files, the imported samples with their truth, the template's alarm step. */
export async function corpusOf(written: readonly Written[], format: StyleFormat, templateOn: boolean): Promise<StyledCorpus> {
  const files = filesOf(written);
  const truth = await importedTruth(written, files, format);
  const samples = written.filter((w) => w.truth);
  const templateAlarmStep = templateOn ? alarmStep(samples.map((w) => w.truth!), samples.map((w) => w.step), TEMPLATE) : null;
  return { truth, files, format, templateAlarmStep, templateBehavior: templateOn ? TEMPLATE : null };
}

/** JSON as Python's json.dumps writes it (", " and ": "), the way chat templates and tool servers print it. */
export function pyJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(pyJson).join(', ')}]`;
  if (v && typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${pyJson(x)}`).join(', ')}}`;
  return JSON.stringify(v);
}

/** A tool as a chat template lists it: a name, what it does, its parameters (name → [JSON type, description]); the first is required. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, [string, string]>;
}

/** The tools block Qwen's chat templates (Qwen2.5, Qwen3) append to the system prompt. */
export function qwenToolsBlock(tools: readonly ToolSpec[]): string {
  const json = (t: ToolSpec) =>
    pyJson({ type: 'function', function: { name: t.name, description: t.description, parameters: { type: 'object', properties: Object.fromEntries(Object.entries(t.parameters).map(([k, [type, description]]) => [k, { type, description }])), required: [Object.keys(t.parameters)[0]] } } });
  return (
    '# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>\n' +
    tools.map(json).join('\n') +
    '\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>'
  );
}

/** A sentence repeated until the length limit (a degenerate loop). */
export function looped(g: Gen, sentence: string): string {
  return Array.from({ length: g.int(25, 60) }, () => sentence).join(' ');
}

/** Noise as trainers' logs have it: empty, a piece cut off (up to `cutMax` of the real text's characters), token soup, a loop. */
export function noiseText(g: Gen, real: string, loop: string, cutMax = 14): string {
  const kind = g.pick(['empty', 'cut', 'garbage', 'loop'] as const);
  if (kind === 'empty') return g.pick(['', ' ', '\n']);
  if (kind === 'cut') return real.slice(0, g.int(3, Math.max(3, Math.min(real.length - 1, cutMax))));
  if (kind === 'garbage') return Array.from({ length: g.int(30, 90) }, () => g.pick(['Ġ', 'Ċ', '\u0120\u0120', '{', '}', ']]', '\\u00', '#', '$', '@@', '||', '~', '%', '0x', '\ufffd'])).join('');
  return loop;
}
