/**
 * What every time chart shows besides its own series: the run's setting changes as labelled rules
 * (App provides them once through Svelte context, so the views need no extra prop).
 */
import { getContext, setContext } from 'svelte';
import type { ChangeRule } from './timeline';

const KEY = Symbol('invariant-lab/change-rules');

export function provideChangeRules(get: () => ChangeRule[]): void {
  setContext(KEY, get);
}

export function useChangeRules(): () => ChangeRule[] {
  return getContext<(() => ChangeRule[]) | undefined>(KEY) ?? (() => []);
}

const NAMES = Symbol('invariant-lab/rule-names');

/** Names of the gate rules in use at a step (from run A's timeline), for the per-rule counts. */
export function provideRuleNames(get: () => ((step: number, rule: number) => string | undefined) | undefined): void {
  setContext(NAMES, get);
}

export function useRuleNames(): () => ((step: number, rule: number) => string | undefined) | undefined {
  return getContext<(() => ((step: number, rule: number) => string | undefined) | undefined) | undefined>(NAMES) ?? (() => undefined);
}
