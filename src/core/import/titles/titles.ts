// The names a person reads beside the key names of discovered states and behaviors: discovery names
// each with a metric-key-safe label (`wait-let-me·backtracks·boxed`) and a title
// (`"Wait, let me…" · backtracks · boxed answer`, discover/discoverer.ts). The key names travel in
// frames, sample lines and filters; the titles travel beside them as these maps, read from the
// discovery's saved clusters (what a follow saves with its frames, and what the page is handed).
import { previewDiscovery, type DiscoverySnapshot, type Labeled } from '../discover/step-labels';
import type { BehaviorRuleSet, StatesSpec } from '../rules/rules';
import type { RegexEngine } from '../rules/regex';
import type { ImportedSample } from '../types';

/** Titles by key name, of states and of behaviors (a name with no entry reads as itself: a rule's label, the log's own). */
export interface LabelTitles {
  states: Record<string, string>;
  behaviors: Record<string, string>;
}

export const NO_TITLES: LabelTitles = { states: {}, behaviors: {} };

/** The titles a discovery's saved clusters give (only those that differ from their name). */
export function titlesOf(snap: DiscoverySnapshot | null | undefined): LabelTitles {
  const of = (pairs: [string, string][] | undefined): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const [name, title] of pairs ?? []) if (title && title !== name) out[name] = title;
    return out;
  };
  return { states: of(snap?.states?.titles), behaviors: of(snap?.behaviors?.titles) };
}

/**
 * One line for each state or behavior of a step not named before (`seen` holds the names said, and
 * takes these): its key name, as frames and step lines carry it, and what a person reads for it
 * (`new behavior wait-let-me·backtracks: "Wait, let me…" · backtracks`); a name with no title (a
 * rule's label, `unclassified`) is said by the step lines alone.
 */
export function newNameLines(names: { states: readonly string[]; behaviors: readonly string[] }, titles: LabelTitles, seen: Set<string>): string[] {
  const out: string[] = [];
  for (const [kind, list, of] of [['state', names.states, titles.states], ['behavior', names.behaviors, titles.behaviors]] as const)
    for (const name of list) {
      if (seen.has(`${kind}:${name}`) || !of[name]) continue;
      seen.add(`${kind}:${name}`);
      out.push(`new ${kind} ${name}: ${of[name]}`);
    }
  return out;
}

/**
 * What a person reads for the names an alarm gives by key (its state, behavior and the states a
 * template answers), a line each: `  behavior numbered: numbered list`; none for names with no title.
 */
export function alarmNameLines(alarm: { state: string | null; behavior?: string; states?: readonly string[] }, titles: LabelTitles): string[] {
  const named: ['state' | 'behavior', string][] = [
    ...(alarm.behavior ? [['behavior', alarm.behavior] as ['behavior', string]] : []),
    ...[...new Set([...(alarm.state ? [alarm.state] : []), ...(alarm.states ?? [])])].map((s) => ['state', s] as ['state', string]),
  ];
  return named.flatMap(([kind, name]) => {
    const title = titleOf(titles, kind, name);
    return title === name ? [] : [`  ${kind} ${name}: ${title}`];
  });
}

/** A state's or a behavior's title, or its name when it has none. */
export function titleOf(titles: LabelTitles | null | undefined, kind: 'state' | 'behavior', name: string): string {
  return (kind === 'state' ? titles?.states[name] : titles?.behaviors[name]) ?? name;
}

/**
 * Labels of a few samples under rules that may leave states or behaviors to discovery (the page's
 * preview of the rules), with the titles of what was discovered: the samples are taken as one step of
 * a fresh discovery (discover/step-labels.ts `previewDiscovery`).
 */
export function previewTitled(samples: readonly ImportedSample[], states: StatesSpec, behaviors: BehaviorRuleSet, regex?: RegexEngine): { labels: Labeled[]; titles: LabelTitles } {
  const { labels, discovery } = previewDiscovery(samples, states, behaviors, regex);
  return { labels, titles: discovery ? titlesOf(discovery.save()) : NO_TITLES };
}
