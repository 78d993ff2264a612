// The state and behavior of each sample of a step when some are discovered: rules name first
// (a `--behaviors` rule that matches, the log's own label), discovery names the rest once the step
// is complete (discoverer.ts). What a sample brings is made when it is read (`arrive`: rules, its
// discovery features; no text kept), and the measure (../measure/measure.ts) holds that until then.
import { BehaviorDiscoverer, StateDiscoverer, UNCLASSIFIED, type BehaviorArrival, type BehaviorFeatures, type DiscoverSnapshot, type StateArrival } from './discoverer';
import { BehaviorClassifier, StateClassifier, type BehaviorRuleSet, type Classified, type StatesSpec } from '../rules/rules';
import type { RegexEngine } from '../rules/regex';
import type { ImportedSample } from '../types';

export interface Labeled {
  state: string;
  behavior: string;
  /** The matching rule's index; -1 the log's own label; -2 discovered; null unclassified. */
  rule: number | null;
}

/** The clusters of a discovery, as saved beside a follow's frames file. */
export interface DiscoverySnapshot {
  behaviors: DiscoverSnapshot | null;
  states: DiscoverSnapshot | null;
}

/** What a step keeps of a sample until it is labelled. */
export interface Arrived {
  /** Its state: a rule's, or what state discovery needs. */
  state: string | StateArrival;
  /** The behavior rules' label (rule null: left to discovery). */
  named: Classified;
  /** What behavior discovery needs (null: a rule named it, or behaviors are not discovered). */
  behavior: BehaviorArrival | null;
}

export class Discovery {
  constructor(
    readonly behaviors: BehaviorDiscoverer | null,
    readonly states: StateDiscoverer | null,
  ) {}

  /** The labels of a complete step's samples, in order. */
  step(step: number, held: readonly ImportedSample[], states: StateClassifier, rules: BehaviorClassifier): Labeled[] {
    return this.stepArrived(step, held.map((s) => this.arrive(s, states, rules)));
  }

  /** What the sample brings to its step when read; `features` when made elsewhere (a worker thread: src/cli/import-jobs.ts). */
  arrive(s: ImportedSample, states: StateClassifier, rules: BehaviorClassifier, features?: BehaviorFeatures): Arrived {
    const named = rules.classify(s);
    return {
      state: this.states ? this.states.arrive(s) : states.classify(s),
      named,
      behavior: this.behaviors && named.rule === null ? this.behaviors.arrive(s, features) : null,
    };
  }

  /** The labels of a complete step's samples from what each brought, in order. */
  stepArrived(step: number, held: readonly Arrived[]): Labeled[] {
    const st = this.states ? this.states.labelArrived(step, held.map((a) => a.state as StateArrival)) : held.map((a) => a.state as string);
    const found = this.behaviors ? this.behaviors.labelArrived(step, held.flatMap((a) => (a.behavior ? [a.behavior] : []))) : [];
    let j = 0;
    return held.map((a, k) => {
      const c = a.named;
      if (c.rule !== null || !this.behaviors) return { state: st[k], behavior: c.behavior, rule: c.rule };
      const b = found[j++];
      return { state: st[k], behavior: b, rule: b === UNCLASSIFIED ? null : -2 };
    });
  }

  /** Behavior names discovered so far (with the noise label: it is always one of the behaviors). */
  behaviorNames(): string[] {
    return this.behaviors ? [...this.behaviors.names(), UNCLASSIFIED] : [];
  }

  save(): DiscoverySnapshot {
    return { behaviors: this.behaviors?.save() ?? null, states: this.states?.save() ?? null };
  }

  restore(snap: DiscoverySnapshot): void {
    if (!snap || typeof snap !== 'object') throw new Error('discovered clusters: expected {"behaviors": …, "states": …}');
    if (this.behaviors) {
      if (!snap.behaviors) throw new Error('discovered clusters: the saved file has no behaviors, this run discovers them');
      this.behaviors.restore(snap.behaviors);
    }
    if (this.states) {
      if (!snap.states) throw new Error('discovered clusters: the saved file has no states, this run discovers them');
      this.states.restore(snap.states);
    }
  }
}

/** A discovery for a run whose rules leave behaviors (no fallback) or states (kind "discover") open; null when neither. */
export function discoveryFor(discoverBehaviors: boolean, discoverStates: boolean, ruleLabels: Iterable<string>): Discovery | null {
  if (!discoverBehaviors && !discoverStates) return null;
  return new Discovery(discoverBehaviors ? new BehaviorDiscoverer(ruleLabels) : null, discoverStates ? new StateDiscoverer() : null);
}

/**
 * Labels of a few samples under rules that may leave states or behaviors to discovery (the page's
 * preview of the rules): the samples are taken as one step of a fresh discovery, returned with it
 * (null when the rules discover nothing) for what it found.
 */
export function previewDiscovery(samples: readonly ImportedSample[], states: StatesSpec, behaviors: BehaviorRuleSet, regex?: RegexEngine): { labels: Labeled[]; discovery: Discovery | null } {
  const bc = new BehaviorClassifier(behaviors, regex);
  const sc = new StateClassifier(states, regex);
  const d = discoveryFor(bc.discovers, states.kind === 'discover', bc.labels());
  if (d) return { labels: d.step(0, samples, sc, bc), discovery: d };
  return { labels: samples.map((s) => ({ state: sc.classify(s), ...bc.classify(s) })), discovery: null };
}

export function previewLabels(samples: readonly ImportedSample[], states: StatesSpec, behaviors: BehaviorRuleSet, regex?: RegexEngine): Labeled[] {
  return previewDiscovery(samples, states, behaviors, regex).labels;
}
