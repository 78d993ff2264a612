// The styled corpora's own invariants (tests/support/discover-styles.ts), not discovery's quality:
// a sample per truth, exactly as the lab's import reads the written files; files in the trainer's
// format; the shapes each style promises (think traces, GRPO groups, sessions, languages); a
// template alarm step only where a template spreads; the same files for the same seed.
import { describe, expect, it } from 'vitest';
import { importSamples } from '../../src/core/import/read/pipeline';
import { memorySource } from '../../src/core/import/sources';
import type { ImportedSample } from '../../src/core/import/types';
import { STYLES, makeStyledCorpus, type Style, type StyledCorpus } from '../support/discover-styles';
import { REASONING_SYSTEM } from '../support/discover-styles/reasoning';
import { scaled } from '../support/speed';

const opts = { seed: 5, steps: 6, perStep: 96 };
const corpora = new Map<Style, Promise<StyledCorpus>>();
const corpus = (style: Style) => corpora.get(style) ?? corpora.set(style, makeStyledCorpus(style, opts)).get(style)!;

async function reimport(c: StyledCorpus): Promise<ImportedSample[]> {
  const out: ImportedSample[] = [];
  const r = await importSamples([...c.files].map(([n, t]) => memorySource(n, t)), { format: c.format }, (s) => out.push(s));
  expect(r.issuesTotal).toBe(0);
  return out;
}

const ordinary = (c: StyledCorpus) => c.truth.filter((t) => t.behavior !== 'noise');
const FILES: Record<Style, RegExp> = { reasoning: /^\d+\.jsonl$/, agent: /^step_\d{4}\/openclaw_record(_prm)?\.jsonl$/, multilingual: /^\d+\.jsonl$/ };
const FORMAT: Record<Style, string> = { reasoning: 'verl', agent: 'openclaw', multilingual: 'jsonl' };

describe('styled corpora', () => {
  it.each(STYLES)('%s: one truth a sample, exactly as the import reads the files, perStep samples a step', async (style) => {
    const c = await corpus(style);
    expect(c.format).toBe(FORMAT[style]);
    for (const f of c.files.keys()) expect(f).toMatch(FILES[style]);
    expect(c.truth).toHaveLength(opts.steps * opts.perStep);
    expect(c.truth.map((t) => t.sample)).toEqual(await reimport(c));
    for (let step = 1; step <= opts.steps; step++) expect(c.truth.filter((t) => t.sample.step === step)).toHaveLength(opts.perStep);
    for (const t of c.truth) {
      expect(t.state).toMatch(/\w/);
      expect(t.behavior).toMatch(/\w/);
      expect(t.lang).toMatch(/^(en|zh|ru|ar|hi)$/);
    }
    // every kind of request and several behaviors in it, some noise, the template
    expect(new Set(c.truth.map((t) => t.state)).size).toBeGreaterThanOrEqual(5);
    expect(new Set(c.truth.map((t) => t.behavior)).size).toBeGreaterThanOrEqual(6);
    expect(c.truth.some((t) => t.behavior === 'noise')).toBe(true);
    expect(c.templateBehavior).toBe('template');
    expect(c.truth.some((t) => t.behavior === 'template')).toBe(true);
  }, scaled(30_000));

  it.each(STYLES)('%s: the template alarm step is the first step with the template over half of two kinds; none without a template', async (style) => {
    const c = await corpus(style);
    const over = (step: number) => {
      const kinds = new Set(c.truth.map((t) => t.state));
      return [...kinds].filter((k) => {
        const cell = c.truth.filter((t) => t.sample.step === step && t.state === k);
        return cell.filter((t) => t.behavior === 'template').length / cell.length > 0.5;
      }).length;
    };
    expect(c.templateAlarmStep).not.toBeNull();
    expect(over(c.templateAlarmStep!)).toBeGreaterThanOrEqual(2);
    for (let s = 1; s < c.templateAlarmStep!; s++) expect(over(s)).toBeLessThan(2);
    const none = await makeStyledCorpus(style, { ...opts, steps: 3, templateEnd: 0 });
    expect(none.templateAlarmStep).toBeNull();
    expect(none.templateBehavior).toBeNull();
    expect(none.truth.some((t) => t.behavior === 'template')).toBe(false);
  }, scaled(30_000));

  it.each(STYLES)('%s: the same seed writes the same files, another seed others', async (style) => {
    const small = { seed: 11, steps: 2, perStep: 40 };
    const [a, b, other] = await Promise.all([makeStyledCorpus(style, small), makeStyledCorpus(style, small), makeStyledCorpus(style, { ...small, seed: 12 })]);
    expect(b.files).toEqual(a.files);
    expect(b.truth.map(({ state, behavior }) => [state, behavior])).toEqual(a.truth.map(({ state, behavior }) => [state, behavior]));
    expect(other.files).not.toEqual(a.files);
  }, scaled(30_000));

  it('reasoning: decoded chat inputs, the shared tools prompt before four kinds, GRPO groups of 8-16, think traces of 80-300 words', async () => {
    const c = await corpus('reasoning');
    const chatml = c.truth.filter((t) => t.sample.prompt.startsWith('<|im_start|>system\n'));
    const plain = c.truth.filter((t) => t.sample.prompt.startsWith('system\n'));
    expect(chatml.length + plain.length).toBe(c.truth.length);
    for (const t of c.truth) expect(t.sample.prompt).toMatch(/(<\|im_start\|>)?assistant\n$/);
    const shared = new Set(c.truth.filter((t) => t.sample.prompt.includes(REASONING_SYSTEM)).map((t) => t.state));
    expect(shared.size).toBe(4);
    expect(REASONING_SYSTEM).toContain('<tools>');
    expect(REASONING_SYSTEM.split(/\s+/).length).toBeGreaterThanOrEqual(150);
    // groups: the samples of one prompt in a step; all but each step's last are 8-16
    const groups = new Map<string, number>();
    for (const t of c.truth) groups.set(t.sample.group!, (groups.get(t.sample.group!) ?? 0) + 1);
    const lastOfStep = new Set([...new Map(c.truth.map((t) => [t.sample.step, t.sample.group!])).values()]);
    for (const [g, n] of groups) if (!lastOfStep.has(g)) expect(n).toBeGreaterThanOrEqual(8), expect(n).toBeLessThanOrEqual(16);
    for (const t of ordinary(c)) {
      const m = /^<think>\n([\s\S]*)\n<\/think>\n\n[\s\S]+(<\|im_end\|>|<\|endoftext\|>)$/.exec(t.sample.response);
      expect(m, t.sample.response.slice(0, 80)).not.toBeNull();
      const words = t.lang === 'zh' ? Math.ceil(m![1].replace(/\s/g, '').length / 2) : m![1].split(/\s+/).length;
      if (t.behavior !== 'template') expect(words).toBeGreaterThanOrEqual(80), expect(words).toBeLessThanOrEqual(330);
    }
    expect(c.truth.some((t) => t.behavior === 'noise' && t.sample.response.startsWith('<think>') && !t.sample.response.includes('</think>'))).toBe(true);
  }, scaled(30_000));

  it('agent: Qwen3 prompts with the whole session, sessions of 2-6 turns, tool calls as OpenClaw records them', async () => {
    const c = await corpus('agent');
    const sessions = new Map<string, ImportedSample[]>();
    for (const t of c.truth) sessions.set(t.sample.group!, [...(sessions.get(t.sample.group!) ?? []), t.sample]);
    for (const turns of sessions.values()) {
      expect(turns.length).toBeLessThanOrEqual(6);
      for (let i = 1; i < turns.length; i++) expect(turns[i].prompt.startsWith(turns[i - 1].prompt.slice(0, -'<|im_start|>assistant\n'.length))).toBe(true);
    }
    expect([...sessions.values()].filter((s) => s.length >= 2).length / sessions.size).toBeGreaterThan(0.8);
    for (const t of c.truth) {
      expect(t.sample.prompt).toMatch(/^<\|im_start\|>system\n[\s\S]*<tools>[\s\S]*<\|im_start\|>assistant\n$/);
      expect(t.facet).toMatch(/^(first|after-tool|after-user)$/);
    }
    for (const t of ordinary(c)) {
      expect(t.sample.response).toMatch(/^<think>\n[\s\S]*<\|im_end\|>$/);
      expect(t.sample.toolCalls.length > 0).toBe(t.sample.response.includes('<tool_call>'));
    }
    expect(c.truth.some((t) => t.behavior === 'calls_tool' && t.sample.toolCalls.length === 1)).toBe(true);
    expect(c.truth.some((t) => t.facet === 'after-tool') && c.truth.some((t) => t.facet === 'after-user')).toBe(true);
  }, scaled(30_000));

  it("multilingual: each language's answers in its own script", async () => {
    const c = await corpus('multilingual');
    const script: Record<string, RegExp> = { en: /\p{Script=Latin}/u, zh: /\p{Script=Han}/u, ru: /\p{Script=Cyrillic}/u, ar: /\p{Script=Arabic}/u, hi: /\p{Script=Devanagari}/u };
    // (a bare number is an answer in every language)
    for (const t of ordinary(c)) if (/\p{L}/u.test(t.sample.response)) expect(t.sample.response).toMatch(script[t.lang]);
    expect(ordinary(c).filter((t) => /\p{L}/u.test(t.sample.response)).length / ordinary(c).length).toBeGreaterThan(0.8);
    expect(new Set(c.truth.map((t) => t.lang))).toEqual(new Set(Object.keys(script)));
  }, scaled(30_000));
});
