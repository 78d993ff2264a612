// How discovery does on corpora as trainers write them (discover-styles.ts), printed as JSON a style:
//   npx tsx tests/support/discover-styles-report.ts [--steps N] [--per-step N] [--seeds 1,2] [--styles reasoning,agent] [--template deepseek]
// (`--template`: the chat template the reasoning style writes its prompts and responses under:
// qwen, the default, deepseek, r1zero or phi3; discover-styles/reasoning.ts)
// Per style and seed: behavior NMI within each true kind (mean, min), per-step behavior entropy
// error, states NMI, the template as one behavior, the template alarm of the lab's follow
// (follow/alarms.ts over the frames of the real import and measure of the written files) against
// the truth's step, false alarms on the same style without a template, and the share of ordinary
// (non-noise) answers left unclassified per language.
// Real run mode: states NMI against the run's own task label (`data_source`) of a verl dump folder
// (`{step}.jsonl` whose lines carry `data_source`, e.g. a reasoning-gym run), read via the verl import:
//   npx tsx tests/support/discover-styles-report.ts --real DIR
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { importSamples } from '../../src/core/import/read/pipeline';
import { memorySource } from '../../src/core/import/sources';
import type { ImportedSample } from '../../src/core/import/types';
import { discoverCorpus, nmi, quality } from './discover-quality';
import { AnswerKinds, answerOf, answerSimilarities, promptId, type AnswerVocab } from '../../src/core/import/discover/answer-kinds';
import { promptWords, requestTurns } from '../../src/core/import/discover/text';
import { followAlarms, templateLabel, unclassifiedByLanguage, type AlarmSeen } from './discover-styles-measure';
import { STYLES, makeStyledCorpus, type Style } from './discover-styles';
import { CHAT_TEMPLATES, type ChatTemplate } from './discover-styles/common';

const round = (x: number | null | undefined, d = 3) => (x === null || x === undefined || !Number.isFinite(x) ? x ?? null : Math.round(x * 10 ** d) / 10 ** d);

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const v = process.argv[i + 1];
  if (v === undefined || v.startsWith('--')) throw new Error(`--${name} needs a value`);
  return v;
}

function intFlag(name: string, fallback: number): number {
  const v = flag(name);
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name}: expected a positive integer, got ${v}`);
  return n;
}

async function styleReport(style: Style, seed: number, steps: number, perStep: number, template: ChatTemplate) {
  const t0 = performance.now();
  const c = await makeStyledCorpus(style, { seed, steps, perStep, template });
  const tGen = performance.now() - t0;
  const { behaviors, states } = discoverCorpus(c.truth, true);
  const q = quality(c.truth, behaviors, states);
  const tDiscover = performance.now() - t0 - tGen;
  const { alarms, labels } = await followAlarms(c);
  const tLabel = templateLabel(c, labels);
  const right = alarms.find((a) => a.behavior === tLabel);
  const kinds = new Set(c.truth.map((t) => t.state)).size;
  return {
    seed,
    samples: c.truth.length,
    behaviorNmi: { mean: round(q.meanNmi), min: round(q.minNmi), perState: Object.fromEntries(Object.entries(q.nmi).map(([k, v]) => [k, round(v)])) },
    entropyError: { mean: round(q.entropyError), max: round(q.entropyErrorMax) },
    statesNmi: round(q.stateNmi),
    statesFound: new Set(states).size,
    kinds,
    behaviorsFound: q.behaviors,
    template: q.template ? { share: round(q.template.share), kinds: q.template.states, of: kinds } : null,
    alarm: {
      truthStep: c.templateAlarmStep,
      step: right?.step ?? null,
      off: right && c.templateAlarmStep !== null ? right.step - c.templateAlarmStep : null,
      // alarms naming a behavior other than the template's, or ringing before the truth (more than 3 steps early)
      falseAlarms: alarms.filter((a) => a !== right || (c.templateAlarmStep !== null && a.step < c.templateAlarmStep - 3)).map((a) => ({ step: a.step, states: a.states })),
    },
    unclassifiedByLanguage: unclassifiedByLanguage(c, behaviors),
    seconds: { generate: round(tGen / 1000, 1), discover: round(tDiscover / 1000, 1) },
  };
}

/** Alarms on the same style with no template: each one is false. */
async function noTemplateAlarms(style: Style, seed: number, steps: number, perStep: number, template: ChatTemplate): Promise<AlarmSeen[]> {
  const c = await makeStyledCorpus(style, { seed, steps, perStep, templateEnd: 0, template });
  return (await followAlarms(c)).alarms;
}

/** States NMI against `data_source` on a real verl dump (every `*.jsonl` of `dir`), overall and per step. */
async function realRun(dir: string) {
  const files = readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort();
  if (!files.length) throw new Error(`${dir}: no .jsonl files (expected a verl rollout dump: {step}.jsonl)`);
  const samples: ImportedSample[] = [];
  const r = await importSamples(files.map((f) => memorySource(f, readFileSync(join(dir, f)))), { format: 'verl' }, (s) => samples.push(s));
  const missing = samples.filter((s) => typeof s.fields.data_source !== 'string').length;
  if (missing) throw new Error(`${dir}: ${missing} of ${samples.length} samples have no data_source`);
  const truth = samples.map((sample) => ({ sample, state: String(sample.fields.data_source), behavior: '?' }));
  const t0 = performance.now();
  const { states } = discoverCorpus(truth, true);
  const perStep: Record<string, number | null> = {};
  for (const step of [...new Set(samples.map((s) => s.step))].sort((a, b) => a - b)) {
    const idx = samples.flatMap((s, i) => (s.step === step ? [i] : []));
    perStep[step] = round(nmi(idx.map((i) => truth[i].state), idx.map((i) => states[i])));
  }
  return { dir, samples: samples.length, issues: r.issuesTotal, dataSources: new Set(truth.map((t) => t.state)).size, statesFound: new Set(states).size, statesNmi: round(nmi(truth.map((t) => t.state), states)), perStep, seconds: round((performance.now() - t0) / 1000, 1), answers: answerAgreement(samples) };
}

/**
 * Whether the answers to one kind of request talk alike across its questions, as the joining of
 * phrasings assumes (discover/answer-kinds.ts): each task's distinct prompts split in two halves
 * (alternately, in reading order), each half's answers counted as a state's, and the cosine that
 * `join` reads between the two halves of one task and between halves of two tasks (halves of 16
 * answers or more).
 */
function answerAgreement(samples: readonly ImportedSample[]) {
  const half = new Map<string, number>();
  const kinds = new AnswerKinds();
  const labels = samples.map((s) => {
    if (!half.has(s.prompt)) half.set(s.prompt, half.size % 2);
    return `${String(s.fields.data_source)}#${half.get(s.prompt)}`;
  });
  kinds.add(labels, samples.map((s) => answerOf(s.response, promptWords(requestTurns(s.prompt).join('\n')), promptId(s.prompt))));
  const names = [...new Set(labels)].filter((l) => (kinds.vocabOf(l)?.n ?? 0) >= 16).sort();
  const sims = answerSimilarities(names.map((l) => kinds.vocabOf(l) as AnswerVocab));
  const task = (l: string) => l.slice(0, l.lastIndexOf('#'));
  const [within, across] = [[] as number[], [] as { sim: number; a: string; b: string }[]];
  for (let i = 0; i < names.length; i++)
    for (let j = i + 1; j < names.length; j++) {
      if (task(names[i]) === task(names[j])) within.push(sims[i][j]);
      else across.push({ sim: sims[i][j], a: task(names[i]), b: task(names[j]) });
    }
  within.sort((a, b) => a - b);
  const joinable = across.filter((x) => x.sim >= 0.5).sort((a, b) => b.sim - a.sim);
  return {
    tasks: within.length,
    withinMedian: round(within[Math.floor(within.length / 2)] ?? null),
    withinLeast: round(within[0] ?? null),
    acrossPairs: across.length,
    acrossAtLeastHalf: joinable.length,
    acrossTop: [...new Set(joinable.map((x) => [x.a, x.b].sort().join(' ~ ')))].slice(0, 8),
  };
}

async function main(): Promise<void> {
  const real = flag('real');
  if (real) {
    console.log(JSON.stringify(await realRun(real), null, 2));
    return;
  }
  const steps = intFlag('steps', 20);
  const perStep = intFlag('per-step', 256);
  const seeds = (flag('seeds') ?? '1,2').split(',').map(Number);
  const styles = (flag('styles')?.split(',') ?? [...STYLES]) as Style[];
  for (const s of styles) if (!STYLES.includes(s)) throw new Error(`--styles: unknown style ${s}; expected ${STYLES.join(', ')}`);
  const template = (flag('template') ?? 'qwen') as ChatTemplate;
  if (!CHAT_TEMPLATES.includes(template)) throw new Error(`--template: unknown template ${template}; expected ${CHAT_TEMPLATES.join(', ')}`);
  for (const style of styles) {
    const runs = [];
    for (const seed of seeds) runs.push(await styleReport(style, seed, steps, perStep, template));
    const none = await noTemplateAlarms(style, seeds[0], steps, perStep, template);
    console.log(JSON.stringify({ style, template, steps, perStep, runs, noTemplate: { seed: seeds[0], alarms: none } }, null, 2));
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
