// The states and behaviors of a fitted task: the import's, in its order, within the model's slots
// (the most sampled are kept), each with a spec name and its token slots (fit-names.ts).
import { fittedNames, type FittedNames } from './fit-names';
import type { FitNotes } from './fit-notes';
import type { FitSource, WindowSums } from './fit-sums';
import { INVALID_NAME } from './spec';
import { HINT_SLOTS, STATE_SLOTS } from './vocab';

export interface FitChoice {
  /** The import's names kept, in the import's order. */
  states: string[];
  behaviors: string[];
  names: FittedNames;
  /** Spec names of an import state / behavior. */
  sName(s: string): string;
  bName(b: string): string;
}

const byCount = (xs: readonly string[], n: (x: string) => number) => [...xs].sort((a, b) => n(b) - n(a) || xs.indexOf(a) - xs.indexOf(b));

function kept(source: FitSource, all: WindowSums, notes: FitNotes): { states: string[]; behaviors: string[] } {
  const stateTotal = (s: string) => all.samples(s);
  const behaviorTotal = (b: string) => source.states.reduce((a, s) => a + all.count(s, b), 0);
  const sampled = source.behaviors.filter((b) => b !== INVALID_NAME && behaviorTotal(b) > 0);
  for (const b of source.behaviors) if (b !== INVALID_NAME && behaviorTotal(b) === 0) notes.add('dropped', 'behaviors', `behavior "${b}" (a rule's label) matched no sample in any step: left out`);
  const keptStates = new Set(byCount(source.states.filter((s) => stateTotal(s) > 0), stateTotal).slice(0, STATE_SLOTS));
  const keptBehaviors = new Set(byCount(sampled, behaviorTotal).slice(0, HINT_SLOTS));
  for (const s of source.states)
    if (!keptStates.has(s) && stateTotal(s) > 0) notes.add('dropped', 'states', `state "${s}" (${stateTotal(s)} samples) left out: the model has ${STATE_SLOTS} state tokens, the ${STATE_SLOTS} most sampled are kept`);
  for (const b of sampled)
    if (!keptBehaviors.has(b)) notes.add('dropped', 'behaviors', `behavior "${b}" (${behaviorTotal(b)} samples) left out: the model has ${HINT_SLOTS} behavior slots; its samples count as no behavior`);
  return { states: source.states.filter((s) => keptStates.has(s)), behaviors: sampled.filter((b) => keptBehaviors.has(b)) };
}

function nameNotes({ states, behaviors, names }: Omit<FitChoice, 'sName' | 'bName'>, notes: FitNotes): void {
  const v = names.vocabulary;
  const stateTokens = states.map((s, i) => `${s} → [${v.states[i]}]`).join(', ');
  const behaviorSlots = behaviors.map((b, i) => `${b} → ${v.markers[i]} / {${v.hints[i]}}`).join(', ');
  notes.add('mapping', 'vocabulary', `states → tokens: ${stateTokens}; behaviors → one marker and one hint token each: ${behaviorSlots}. The log's response text is not kept: a fitted behavior is its marker with filler tokens, as many and as varied as its responses' length and word repeats say (states[].responses)`);
  const rule = '(spec names: letters, digits, space, _.:-, at most 40)';
  states.forEach((s, i) => s !== names.states[i] && notes.add('mapping', `states[${i}].name`, `state "${s}" is named "${names.states[i]}" ${rule}`));
  behaviors.forEach((b, i) => b !== names.behaviors[i] && notes.add('mapping', `behaviors[${i}].name`, `behavior "${b}" is named "${names.behaviors[i]}" ${rule}`));
}

/** The kept states and behaviors and their names; throws when nothing is left to fit. */
export function chooseNames(source: FitSource, all: WindowSums, notes: FitNotes): FitChoice {
  const { states, behaviors } = kept(source, all, notes);
  if (!states.length || !behaviors.length) throw new Error(`fit: the import has no ${states.length ? 'sample of any behavior (every sample is invalid)' : 'state with samples'}`);
  const names = fittedNames(states, behaviors);
  nameNotes({ states, behaviors, names }, notes);
  return { states, behaviors, names, sName: (s) => names.states[states.indexOf(s)], bName: (b) => names.behaviors[behaviors.indexOf(b)] };
}
