// How well discovered labels match a corpus's truth (tests/support/discover-corpus.ts): normalized
// mutual information per state (2·I / (H(truth) + H(labels)), pooled over the run), the error of
// per-step behavior entropy per state (nats), and whether the spreading template is one behavior.
import { Discovery } from '../../src/core/import/discover/step-labels';
import { BehaviorDiscoverer, StateDiscoverer } from '../../src/core/import/discover/discoverer';
import { BehaviorClassifier, StateClassifier } from '../../src/core/import/rules/rules';
import type { TruthSample } from './discover-corpus';
import { entropy, nmi, tally } from '../../src/core/measure/nmi';

export { nmi };
import type { ClusterParams } from '../../src/core/import/discover/clusters';

export interface Quality {
  /** NMI per true state, pooled over steps. */
  nmi: Record<string, number>;
  minNmi: number;
  meanNmi: number;
  /** Mean and max |H(truth) − H(labels)| over steps × states (nats). */
  entropyError: number;
  entropyErrorMax: number;
  /** The template's most common label, its share of the template's samples, and the states where it answers the template. */
  template: { label: string; share: number; states: number } | null;
  behaviors: number;
  unclassified: number;
  /** NMI of discovered states against the true states (null when states were not discovered). */
  stateNmi: number | null;
}

/** Labels a corpus step by step with a fresh discovery (the measure's path) and scores them. */
export function discoverCorpus(corpus: readonly TruthSample[], withStates = false, params?: { behaviors?: ClusterParams; states?: ClusterParams }): { behaviors: string[]; states: string[]; discovery: Discovery } {
  const d = new Discovery(new BehaviorDiscoverer([], params?.behaviors), withStates ? new StateDiscoverer(params?.states) : null);
  const sc = new StateClassifier({ kind: 'single' });
  const bc = new BehaviorClassifier({ rules: [] });
  // labels sit at their sample's index in `corpus`, whatever order its steps come in
  const behaviors: string[] = new Array<string>(corpus.length);
  const states: string[] = new Array<string>(corpus.length);
  const steps = [...new Set(corpus.map((t) => t.sample.step))].sort((x, y) => x - y);
  for (const step of steps) {
    const idx = corpus.flatMap((t, i) => (t.sample.step === step ? [i] : []));
    d.step(step, idx.map((i) => corpus[i].sample), sc, bc).forEach((l, j) => ((behaviors[idx[j]] = l.behavior), (states[idx[j]] = l.state)));
  }
  return { behaviors, states, discovery: d };
}

export function quality(corpus: readonly TruthSample[], labels: readonly string[], states: readonly string[] | null = null): Quality {
  const byState = new Map<string, number[]>();
  corpus.forEach((t, i) => byState.set(t.state, [...(byState.get(t.state) ?? []), i]));
  const perState: Record<string, number> = {};
  for (const [st, idx] of byState) perState[st] = nmi(idx.map((i) => corpus[i].behavior), idx.map((i) => labels[i]));
  const errs: number[] = [];
  const cells = new Map<string, number[]>();
  corpus.forEach((t, i) => {
    const k = `${t.sample.step}\u0000${t.state}`;
    cells.set(k, [...(cells.get(k) ?? []), i]);
  });
  for (const idx of cells.values()) errs.push(Math.abs(entropy(tally(idx.map((i) => corpus[i].behavior)).values()) - entropy(tally(idx.map((i) => labels[i])).values())));
  const tIdx = corpus.flatMap((t, i) => (t.behavior === 'template' ? [i] : []));
  let template: Quality['template'] = null;
  if (tIdx.length) {
    const [label, n] = [...tally(tIdx.map((i) => labels[i]))].sort((x, y) => y[1] - x[1])[0];
    template = { label, share: n / tIdx.length, states: new Set(tIdx.filter((i) => labels[i] === label).map((i) => corpus[i].state)).size };
  }
  const vals = Object.values(perState);
  return {
    nmi: perState,
    minNmi: Math.min(...vals),
    meanNmi: vals.reduce((a, x) => a + x, 0) / vals.length,
    entropyError: errs.reduce((a, x) => a + x, 0) / errs.length,
    entropyErrorMax: Math.max(...errs),
    template,
    behaviors: new Set(labels).size,
    unclassified: labels.filter((l) => l === 'unclassified').length,
    stateNmi: states ? nmi(corpus.map((t) => t.state), states) : null,
  };
}
