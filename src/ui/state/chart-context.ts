/**
 * What every time chart shows besides its own series: the run's setting changes as labelled rules
 * (App provides them once through Svelte context, so the views need no extra prop).
 */
import { getContext, setContext } from 'svelte';
import type { RunRuleNamers } from '../gates/rule-names';
import type { ChangeRule } from './timeline';

const KEY = Symbol('invariant-lab/change-rules');

export function provideChangeRules(get: () => ChangeRule[]): void {
  setContext(KEY, get);
}

export function useChangeRules(): () => ChangeRule[] {
  return getContext<(() => ChangeRule[]) | undefined>(KEY) ?? (() => []);
}

const NAMES = Symbol('invariant-lab/rule-names');

/** The gate rules in use at each step of run A and of the compare run (from their timelines), for the per-rule counts. */
export function provideRuleNames(get: () => RunRuleNamers): void {
  setContext(NAMES, get);
}

export function useRuleNames(): () => RunRuleNamers {
  return getContext<(() => RunRuleNamers) | undefined>(NAMES) ?? (() => ({}));
}
