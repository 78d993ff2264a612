// The state and behavior of each sample of a step when some are discovered: rules name first
// (a `--behaviors` rule that matches, the log's own label), discovery names the rest once the step
// is complete (discoverer.ts). The measure (../measure/measure.ts) holds a step's samples until then.
import { BehaviorDiscoverer, StateDiscoverer, UNCLASSIFIED, type DiscoverSnapshot } from './discoverer';
import { BehaviorClassifier, StateClassifier, type BehaviorRuleSet, type StatesSpec } from '../rules/rules';
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

export class Discovery {
  constructor(
    readonly behaviors: BehaviorDiscoverer | null,
    readonly states: StateDiscoverer | null,
  ) {}

  /** The labels of a complete step's samples, in order. */
  step(step: number, held: readonly ImportedSample[], states: StateClassifier, rules: BehaviorClassifier): Labeled[] {
    const st = this.states ? this.states.labelStep(step, held) : held.map((s) => states.classify(s));
    const named = held.map((s) => rules.classify(s));
    const rest = this.behaviors ? held.filter((_, k) => named[k].rule === null) : [];
    const found = this.behaviors ? this.behaviors.labelStep(step, rest) : [];
    let j = 0;
    return held.map((_, k) => {
      const c = named[k];
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
