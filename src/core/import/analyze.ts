// The two passes the lab and the CLI run over a set of log files: `scanLogs` (format, counts,
// issues, the first samples for the rules preview) and `measureLogs` (every sample classified and
// measured into per-step frames). Both stream; neither holds the files.
import { compileGate } from '../gates/index';
import type { MetricsFrame } from '../metrics';
import { ImportMeasure, StepOrderError, type SampleRowsSink, type TokenEntropyKind } from './measure/measure';
import { importSamples, type ImportOptions, type ImportResult } from './read/pipeline';
import { BehaviorClassifier, StateClassifier, parseBehaviorRuleSet, parseStatesSpec, type BehaviorRuleSet, type StatesSpec } from './rules/rules';
import type { RegexEngine } from './rules/regex';
import { RewardReader, describeReward, type RewardChoice } from './rules/reward';
import type { ImportSource, ImportedSample } from './types';
import { discoveryFor, type DiscoverySnapshot } from './discover/step-labels';
import { titlesOf, type LabelTitles } from './titles/titles';
import { FeatureBatches, type FeatureJobs } from './measure/feature-batches';

export const PREVIEW_SAMPLES = 200;

export interface ScanResult extends ImportResult {
  preview: ImportedSample[];
  steps: number[];
  hasLogprobs: boolean;
  hasTools: boolean;
}

export async function scanLogs(sources: readonly ImportSource[], opts: ImportOptions = {}, previewN = PREVIEW_SAMPLES): Promise<ScanResult> {
  const preview: ImportedSample[] = [];
  const steps = new Set<number>();
  let hasLogprobs = false;
  let hasTools = false;
  const r = await importSamples(sources, opts, (s) => {
    if (preview.length < previewN) preview.push(s);
    steps.add(s.step);
    hasLogprobs ||= !!s.logprobs;
    hasTools ||= s.toolCalls.length > 0;
  });
  return { ...r, preview, steps: [...steps].sort((a, b) => a - b), hasLogprobs, hasTools };
}

export interface MeasureSpec {
  states: StatesSpec;
  behaviors: BehaviorRuleSet;
  /** Feasibility threshold ε of behavior support. */
  eps: number;
  /** Gate text (the gates' rule language, one rule per line) replayed on every step, or none. */
  gate?: string;
  /** Which number is the judge's score (default: the format's own reward). */
  reward?: RewardChoice;
}

export interface MeasureResult extends ImportResult {
  frames: MetricsFrame[];
  states: string[];
  behaviors: string[];
  unclassified: number;
  tokenEntropy: TokenEntropyKind;
  /** 'ordered': measured holding at most OPEN_STEPS steps at once; 'unordered': steps came back, every step was held. */
  stepOrder: 'ordered' | 'unordered';
  /** The reward that was read, in words (describeReward). */
  reward: string;
  /** What a person reads for each discovered state and behavior, by key name (none for rules' labels). */
  titles: LabelTitles;
}

/** Steps held open at once in a measure (a little slack for a log whose steps interleave at the edges). */
export const OPEN_STEPS = 2;

/** The rules when none are given: behaviors (or the log's own labels) and states discovered. */
export const DISCOVER_BEHAVIORS: BehaviorRuleSet = { rules: [], useLogLabel: true };
export const DISCOVER_STATES: StatesSpec = { kind: 'discover' };

/** True when the spec leaves behaviors (a rule set without fallback) or states (kind "discover") to discovery. */
export function discovers(spec: Pick<MeasureSpec, 'states' | 'behaviors'>): boolean {
  return spec.behaviors.fallback === undefined || spec.states.kind === 'discover';
}

/**
 * The spec checked once; each call makes a fresh measure holding at most `openSteps` steps (the
 * one-shot import and the follower), its discovery (if any) continued from `resume` (a follow's saved clusters).
 */
export function measureOf(spec: MeasureSpec, regex?: RegexEngine): (openSteps: number, resume?: DiscoverySnapshot) => ImportMeasure {
  const statesSpec = parseStatesSpec(spec.states);
  const behaviorSpec = parseBehaviorRuleSet(spec.behaviors);
  if (!(spec.eps >= 0 && spec.eps < 1)) throw new Error(`eps: expected a number in [0, 1), got ${spec.eps}`);
  const gate = spec.gate ? compileGate(spec.gate) : null;
  return (openSteps, resume) => {
    const behaviors = new BehaviorClassifier(behaviorSpec, regex);
    const discovery = discoveryFor(behaviors.discovers, statesSpec.kind === 'discover', behaviors.labels());
    if (resume) discovery?.restore(resume);
    return new ImportMeasure(new StateClassifier(statesSpec, regex), behaviors, spec.eps, gate, openSteps, spec.reward ? new RewardReader(spec.reward) : null, discovery);
  };
}

/** Where a one-shot import hands each measured step's sample lines (`--samples-out`). */
export interface SamplesOut extends SampleRowsSink {
  /** The log came back to a step already measured: the lines handed so far are void, every step comes again. */
  restart(): void;
}

export interface MeasureOptions extends ImportOptions {
  /** Worker threads that make behavior discovery's features (`--jobs`); the frames are those of one thread. */
  features?: FeatureJobs;
  /** Told each measure the import makes (its discovery explains a label: the rollout viewer), without holding samples whole as `onSample` does. */
  onMeasure?: (m: ImportMeasure) => void;
}

/**
 * Every sample measured into per-step frames. `onSample` hears each sample once it is labelled: at
 * once with rules only, at the end of its step when behaviors or states are discovered; with the
 * measure that labelled it (its discovery explains a label: the rollout viewer).
 */
export async function measureLogs(sources: readonly ImportSource[], spec: MeasureSpec, opts: MeasureOptions = {}, onSample?: (s: ImportedSample, state: string, behavior: string, measure: ImportMeasure) => void, samples?: SamplesOut): Promise<MeasureResult> {
  const newMeasure = measureOf(spec, opts.regex);
  let delivered = 0;
  // Bounded memory for a log in step order; a log out of order is read again holding every step
  // (onSample sees each sample once: the second pass skips those the first one delivered).
  const pass = async (openSteps: number) => {
    const m = newMeasure(openSteps);
    opts.onMeasure?.(m);
    if (samples) m.recordSamples(samples);
    let seen = 0;
    // only a listener makes a step waiting for discovery's labels hold its samples whole
    if (onSample)
      m.onLabeled = (s, state, behavior) => {
        if (seen++ < delivered) return;
        delivered++;
        onSample(s, state, behavior, m);
      };
    const params = m.discovery?.behaviors?.params;
    if (!opts.features || !params) return { m, r: await importSamples(sources, opts, (s) => m.add(s)) };
    // with worker threads: features made there, a batch at a time, the samples added in the order read
    const batches = new FeatureBatches(opts.features, params, (s, f) => m.add(s, f));
    const r = await importSamples(batches.sources(sources), opts, (s) => batches.push(s));
    await batches.end();
    return { m, r };
  };
  let stepOrder: MeasureResult['stepOrder'] = 'ordered';
  let run: Awaited<ReturnType<typeof pass>>;
  try {
    run = await pass(OPEN_STEPS);
  } catch (e) {
    if (!(e instanceof StepOrderError)) throw e;
    stepOrder = 'unordered';
    samples?.restart();
    run = await pass(Infinity);
  }
  const { m, r } = run;
  m.reward?.check();
  const renamed = [...m.states.names.describe('state'), ...m.behaviors.names.describe('behavior')].map((message) => ({ file: '', line: 0, message }));
  if (renamed.length) Object.assign(r, { issues: [...renamed, ...r.issues], issuesTotal: r.issuesTotal + renamed.length });
  const frames = m.frames();
  const stateNames = [...new Set(frames.flatMap((f) => Object.keys(f.scalars).filter((k) => k.startsWith('support/behavior_entropy/')).map((k) => k.slice(25))))];
  return { ...r, frames, states: stateNames, behaviors: m.behaviorNames(), unclassified: m.unclassified, tokenEntropy: m.tokenEntropyKind(), stepOrder, reward: describeReward(spec.reward), titles: titlesOf(m.discovery?.save()) };
}
