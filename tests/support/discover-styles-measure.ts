// What the styled corpora (discover-styles.ts) are measured by, shared by the report and the tests:
// the follow's template-spreading alarms over the frames of the real import and measure of the
// written files, the label most of the template's samples got, and the share of ordinary answers
// left unclassified per language.
import { DISCOVER_BEHAVIORS, DISCOVER_STATES, measureLogs } from '../../src/core/import/analyze';
import { UNCLASSIFIED } from '../../src/core/import/discover/discoverer';
import { RunAlarms } from '../../src/core/import/follow/alarms';
import { memorySource } from '../../src/core/import/sources';
import type { StyledCorpus } from './discover-styles';

const EPS = 0.05;
const round = (x: number, d = 3) => Math.round(x * 10 ** d) / 10 ** d;

export interface AlarmSeen {
  step: number;
  behavior: string;
  states: number;
}

/** The follow's template-spreading alarms over the frames of the written files, and each sample's labels, from the real import and measure. */
export async function followAlarms(c: StyledCorpus): Promise<{ alarms: AlarmSeen[]; labels: Map<string, string> }> {
  const labels = new Map<string, string>();
  const m = await measureLogs([...c.files].map(([name, text]) => memorySource(name, text)), { states: DISCOVER_STATES, behaviors: DISCOVER_BEHAVIORS, eps: EPS }, { format: c.format }, (s, _state, behavior) => labels.set(`${s.file}\u0000${s.line}`, behavior));
  const run = new RunAlarms(EPS);
  const alarms: AlarmSeen[] = [];
  for (const f of m.frames)
    for (const a of run.add(f))
      if (a.kind === 'template-spreading') alarms.push({ step: a.step, behavior: a.behavior!, states: Number(/answers (\d+) of/.exec(a.message)?.[1] ?? NaN) });
  return { alarms, labels };
}

/** The label the pipeline gave most of the template's samples (what a right alarm names). */
export function templateLabel(c: StyledCorpus, labels: Map<string, string>): string | null {
  const counts = new Map<string, number>();
  for (const t of c.truth) if (t.behavior === c.templateBehavior) {
    const l = labels.get(`${t.sample.file}\u0000${t.sample.line}`) ?? '?';
    counts.set(l, (counts.get(l) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

export function unclassifiedByLanguage(c: StyledCorpus, behaviors: readonly string[]): Record<string, number | null> {
  const by = new Map<string, [number, number]>();
  c.truth.forEach((t, i) => {
    if (t.behavior === 'noise') return;
    const x = by.get(t.lang) ?? [0, 0];
    x[0] += behaviors[i] === UNCLASSIFIED ? 1 : 0;
    x[1]++;
    by.set(t.lang, x);
  });
  return Object.fromEntries([...by].sort().map(([l, [u, n]]) => [l, round(u / n)]));
}

