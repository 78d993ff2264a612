// Names and token slots of a fitted task: an imported state or behavior keeps its name where the
// spec's name rule allows it (so the fitted run's metric keys line up with the import's), else it
// is spelled safely; each gets its own token slot, in the import's order, with a readable name.
import { SPEC_NAME, TOKEN_NAME, type VocabularySpec } from './spec';

function unique(candidate: string, used: Set<string>, fallback: string): string {
  let name = candidate;
  for (let k = 2; used.has(name); k++) name = `${candidate.slice(0, 36)}_${k}`;
  if (!name) name = fallback;
  used.add(name);
  return name;
}

/** A spec name for an import name: the same when it is one, else with each other character as "_". */
export function specName(raw: string, used: Set<string>, fallback: string, pattern = SPEC_NAME): string {
  let s = raw.replace(pattern === SPEC_NAME ? /[^A-Za-z0-9 _.:-]/g : /[^A-Za-z0-9_.:-]/g, '_').replace(/^[^A-Za-z0-9]+/, '').slice(0, 40);
  if (!pattern.test(s)) s = fallback;
  return unique(s, used, fallback);
}

/** A marker name (1–16 capitals) from a behavior name: its letters, upper-cased. */
export function markerName(behavior: string, used: Set<string>, index: number): string {
  let m = behavior.toUpperCase().replace(/[^A-Z]/g, '').slice(0, 16) || 'B';
  for (let k = 0; used.has(m); k++) m = `${m.slice(0, 15)}${String.fromCharCode(65 + (k % 26))}`;
  if (used.has(m)) m = `M${'ABCDEFGHIJKL'[index]}`;
  used.add(m);
  return m;
}

export interface FittedNames {
  states: string[];
  behaviors: string[];
  vocabulary: VocabularySpec;
}

/** Spec names and the vocabulary (one state token, one marker and one hint token each). */
export function fittedNames(states: readonly string[], behaviors: readonly string[]): FittedNames {
  const stateNames = new Set<string>();
  const behaviorNames = new Set<string>(['invalid']);
  const tokens = new Set<string>();
  const markers = new Set<string>();
  const hints = new Set<string>();
  const s = states.map((x, i) => specName(x, stateNames, `state${i + 1}`));
  const b = behaviors.map((x, i) => specName(x, behaviorNames, `behavior${i + 1}`));
  return {
    states: s,
    behaviors: b,
    vocabulary: {
      states: s.map((x, i) => specName(x, tokens, `state${i + 1}`, TOKEN_NAME)),
      markers: b.map((x, i) => markerName(x, markers, i)),
      hints: b.map((x, i) => specName(`hint:${x}`, hints, `hint${i + 1}`, TOKEN_NAME)),
    },
  };
}
