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
