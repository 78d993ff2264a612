// Alarms over a followed run's frames, each with hysteresis so a wobble does not ring twice:
//   collapse / divergence  the lab's own marker rule (src/core/measure/divergence.ts, the
//                          divergence plot's): behavior support per state drops, tested against ε
//                          with the recorded standard errors over a window of 5 steps; "divergence"
//                          when token entropy is still ≥ 80 % of its start, else "collapse";
//   entropy-gap            token entropy holding (≥ 80 % of its start) while behavior entropy has
//                          fallen below half its start, per state (re-armed above 70 %);
//   esr-fall               the effective sample rate of the replayed gate (--gate) below half its
//                          start (re-armed above 75 %);
//   zero-variance          the share of groups with zero reward variance (grad/zero_std_frac) 0.25
//                          above its start (re-armed within 0.1 of it);
//   template-spreading     one behavior comes to answer most samples (> 50 %, the markers'
//                          hysteresis) of 2 or more states while I(S;B) falls below 90 % of its
//                          start, by more than its estimate's bias (spreading.ts); re-armed when
//                          it answers most of fewer than 2.
// "Start" is the mean of the first 3 steps followed; "now" the mean of the last 3.
import type { MetricsFrame } from '../../metrics';
import type { ScalarName } from '../../measure/names';
import { describeMarker, divergenceMarkers, type BehaviorPoint } from '../../measure/divergence';
import { describeSpreading, templateSpreading } from './spreading';

export type AlarmKind = 'collapse' | 'divergence' | 'entropy-gap' | 'esr-fall' | 'zero-variance' | 'template-spreading';

export interface Alarm {
  step: number;
  kind: AlarmKind;
  /** The state it is about; null for the run as a whole. */
  state: string | null;
  /** The behavior it is about (template-spreading only). */
  behavior?: string;
  /** The states it answers most of (template-spreading only). */
  states?: string[];
  message: string;
}

const SPAN = 3;
const DIST = 'support/behavior_dist/';

type Scalars = MetricsFrame['scalars'];

const mean = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;

/** Start and now of a series (null until it has 2·SPAN points). */
function startNow(xs: readonly number[]): { start: number; now: number } | null {
  const ys = xs.filter(Number.isFinite);
  return ys.length < 2 * SPAN ? null : { start: mean(ys.slice(0, SPAN)), now: mean(ys.slice(-SPAN)) };
}

function tokenEntropyOf(s: Scalars, state: string): number {
  return s[`support/token_entropy/${state}`] ?? s[`support/token_entropy_empirical/${state}`] ?? s['support/token_entropy'] ?? s['support/token_entropy_empirical'] ?? NaN;
}

export class RunAlarms {
  private frames = new Map<number, Scalars>();
  private rung = new Set<string>();
  /** Per behavior, the step of the last template-spreading onset rung. */
  private spreadRung = new Map<string, number>();
  /** Latched alarms (key → still ringing until re-armed). */
  private latched = new Set<string>();

  constructor(private readonly eps: number) {}

  /** A frame written (or replaced); the alarms that ring now for the first time. */
  add(f: MetricsFrame): Alarm[] {
    this.frames.set(f.step, f.scalars);
    const steps = [...this.frames.keys()].sort((a, b) => a - b);
    const frames = steps.map((s) => this.frames.get(s)!);
    const step = steps.at(-1)!;
    const out: Alarm[] = [];
    for (const state of this.statesOf(frames)) {
      out.push(...this.markers(steps, frames, state));
      const b = startNow(frames.map((s) => s[`support/behavior_entropy/${state}`] ?? NaN));
      const t = startNow(frames.map((s) => tokenEntropyOf(s, state)));
      if (b && t && b.start > 0 && t.start > 0)
        this.latch(out, `gap:${state}`, b.now / b.start < 0.5 && t.now / t.start >= 0.8, b.now / b.start > 0.7, () => ({ step, kind: 'entropy-gap', state, message: `${state}: behavior entropy fell to ${pct(b.now / b.start)} of its start while token entropy holds at ${pct(t.now / t.start)}` }));
    }
    for (const t of templateSpreading(steps, frames)) {
      // an onset later frames place at another step no later than the one rung is that onset again
      // (the hysteresis track of a state can start sooner once more steps are seen); a new onset of
      // the behavior, after it was re-armed, comes later
      const last = this.spreadRung.get(t.behavior);
      if (last !== undefined && t.step <= last) continue;
      this.spreadRung.set(t.behavior, t.step);
      out.push({ step: t.step, kind: 'template-spreading', state: null, behavior: t.behavior, states: t.states, message: describeSpreading(t) });
    }
    const esr = startNow(frames.map((s) => s['esr/effective_rate'] ?? NaN));
    if (esr && esr.start > 0)
      this.latch(out, 'esr', esr.now < 0.5 * esr.start, esr.now > 0.75 * esr.start, () => ({ step, kind: 'esr-fall', state: null, message: `effective sample rate under the gate fell from ${pct(esr.start)} to ${pct(esr.now)}` }));
    const zv = startNow(frames.map((s) => s['grad/zero_std_frac'] ?? NaN));
    if (zv)
      this.latch(out, 'zv', zv.now >= zv.start + 0.25, zv.now < zv.start + 0.1, () => ({ step, kind: 'zero-variance', state: null, message: `groups with zero reward variance rose from ${pct(zv.start)} to ${pct(zv.now)} (no gradient from them)` }));
    return out;
  }

  private statesOf(frames: readonly Scalars[]): string[] {
    const states = new Set<string>();
    for (const s of frames) for (const k of Object.keys(s)) if (k.startsWith('support/behavior_entropy/')) states.add(k.slice(25));
    return [...states].sort();
  }

  /** The lab's collapse / divergence markers of one state, each rung once. */
  private markers(steps: readonly number[], frames: readonly Scalars[], state: string): Alarm[] {
    const behaviors = [...new Set(frames.flatMap((s) => Object.keys(s).filter((k) => k.startsWith(`${DIST}${state}/`)).map((k) => k.slice(DIST.length + state.length + 1))))].filter((b) => b !== 'invalid').sort();
    const points: BehaviorPoint[] = frames.map((s, i) => ({
      step: steps[i],
      p: behaviors.map((b) => s[`${DIST}${state}/${b}`] ?? 0),
      se: behaviors.map((b) => s[`support/behavior_dist_se/${state}/${b}`] ?? 0),
      tokenEntropy: tokenEntropyOf(s, state),
    }));
    const n = mean(frames.map((s) => s[`import/state_samples/${state}`] ?? 0));
    const out: Alarm[] = [];
    for (const m of divergenceMarkers(points, { eps: this.eps, samples: Math.max(1, n) })) {
      const key = `marker:${state}:${m.step}`;
      if (this.rung.has(key)) continue;
      this.rung.add(key);
      out.push({ step: m.step, kind: m.kind, state, message: describeMarker(m, state) });
    }
    return out;
  }

  private latch(out: Alarm[], key: string, fire: boolean, rearm: boolean, alarm: () => Alarm): void {
    if (this.latched.has(key)) {
      if (rearm) this.latched.delete(key);
      return;
    }
    if (!fire) return;
    this.latched.add(key);
    out.push(alarm());
  }
}

const pct = (x: number) => `${Math.round(100 * x)} %`;
