/**
 * From a plot point to its samples: the view that shows a run (the import view, the lab) provides
 * how to open the rollout viewer; a chart, a marker or an alarm calls it with what was clicked
 * (viewer-model.ts SamplePick). Without a provider the charts offer no link.
 */
import { getContext, setContext } from 'svelte';
import type { SamplePick } from './viewer-model';

/**
 * `focus`: move the keyboard into the viewer (Enter on a chart's cursor, an alarm's link). A mouse
 * click leaves the focus where it is, so the class shortcuts (Space plays, → steps) still work after a
 * click on a plot; the viewer opens beside it.
 */
export type OpenSamples = (pick: SamplePick, how?: { focus: boolean }) => void;

const KEY = Symbol('invariant-lab/sample-link');

export function provideSampleLink(get: () => OpenSamples | null): void {
  setContext(KEY, get);
}

export function useSampleLink(): () => OpenSamples | null {
  return getContext<(() => OpenSamples | null) | undefined>(KEY) ?? (() => null);
}
