import { describe, expect, it } from 'vitest';
import type { MetricsFrame } from '../../metrics';
import { RunAlarms } from './alarms';
import { describeSpreading } from './spreading';

const STATES = ['chat', 'code', 'math'];
const BEHAVIORS = ['tmpl', 'a', 'b', 'c'];
const N = 64;

/** A frame from each state's shares over BEHAVIORS (64 samples a state, recorded SE, token entropy flat). */
function frame(step: number, shares: Record<string, number[]>, n = N): MetricsFrame {
  const s: Record<string, number> = {};
  for (const st of STATES) {
    const p = shares[st];
    s[`support/token_entropy/${st}`] = 1.2;
    s[`import/state_samples/${st}`] = n;
    p.forEach((x, i) => {
      s[`support/behavior_dist/${st}/${BEHAVIORS[i]}`] = x;
      s[`support/behavior_dist_se/${st}/${BEHAVIORS[i]}`] = Math.sqrt((x * (1 - x)) / n);
    });
    s[`support/behavior_entropy/${st}`] = -p.reduce((a, x) => a + (x > 0 ? x * Math.log(x) : 0), 0);
  }
  return { step, version: step, scalars: s, series: {}, ratioEdges: [], perf: {}, changes: {}, trace: [] };
}

/** Each state answered mostly by its own behavior (chat: a, code: b, math: c). */
const OWN: Record<string, number[]> = { chat: [0.1, 0.6, 0.15, 0.15], code: [0.1, 0.15, 0.6, 0.15], math: [0.1, 0.15, 0.15, 0.6] };
/** The template answering 60 % of a state's samples (its entropy about the one each state had: I(S;B) falls as it spreads). */
const TAKEN = [0.6, 0.2, 0.1, 0.1];

function ring(shares: (step: number) => Record<string, number[]>, steps = 24, n = N) {
  const a = new RunAlarms(0.05);
  return Array.from({ length: steps }, (_, i) => a.add(frame(i + 1, shares(i + 1), n))).flat();
}
/** As `ring`, with `state` measured no more after step `last` (merged into another: its keys gone from the frames). */
function ringWithout(state: string, last: number, shares: (step: number) => Record<string, number[]>, steps: number) {
  const a = new RunAlarms(0.05);
  return Array.from({ length: steps }, (_, i) => {
    const f = frame(i + 1, shares(i + 1));
    const scalars = f.scalars as Record<string, number>;
    if (i + 1 > last) for (const k of Object.keys(scalars)) if (k.includes(`/${state}`)) delete scalars[k];
    return a.add(f);
  }).flat();
}
const spreading = (rung: ReturnType<typeof ring>) => rung.filter((x) => x.kind === 'template-spreading');

describe('template spreading alarm', () => {
  it('a template growing across 3 states rings once, when it answers most of the second state, naming it', () => {
    // math taken from step 8, code from step 12, chat from step 16
    const rung = ring((t) => ({ math: t >= 8 ? TAKEN : OWN.math, code: t >= 12 ? TAKEN : OWN.code, chat: t >= 16 ? TAKEN : OWN.chat }));
    const s = spreading(rung);
    expect(s).toHaveLength(1);
    // at the first step of the marker rule's window (5 steps) that holds code's share significantly above half
    expect(s[0]).toMatchObject({ step: 12, state: null, behavior: 'tmpl' });
    expect(s[0].message).toMatch(/^template spreading: behavior tmpl answers 2 of 3 states \(code, math\); I\(S;B\) fell from 0\.\d\d to 0\.\d\d nats$/);
    // the ordinary per-state alarm does not ring for it: each state's support stays at 4 behaviors
    expect(rung.filter((x) => x.kind === 'divergence' || x.kind === 'collapse')).toHaveLength(0);
  });

  it('each state collapsing onto its own behavior is the ordinary collapse alarm, not spreading', () => {
    const uniform = [0.25, 0.25, 0.25, 0.25];
    const own: Record<string, number[]> = { chat: [0.01, 0.97, 0.01, 0.01], code: [0.01, 0.01, 0.97, 0.01], math: [0.01, 0.01, 0.01, 0.97] };
    const rung = ring((t) => (t < 6 ? { chat: uniform, code: uniform, math: uniform } : own));
    expect(rung.filter((x) => x.kind === 'divergence').map((x) => x.state)).toEqual(STATES);
    expect(spreading(rung)).toEqual([]);
  });

  it('a one-step blip of the template in two states does not ring (hysteresis), also while I(S;B) falls', () => {
    // the states mix from step 6 (I(S;B) falls and stays low); at step 12 alone the template answers 95 % of math and code
    const mixed = [0.25, 0.25, 0.25, 0.25];
    const blip = [0.95, 0.02, 0.02, 0.01];
    const rung = ring((t) => (t < 6 ? OWN : t === 12 ? { chat: mixed, code: blip, math: blip } : { chat: mixed, code: mixed, math: mixed }));
    expect(spreading(rung)).toEqual([]);
  });

  it('a template at 52 % of two states, not significantly above half over the window, does not ring', () => {
    // 64 samples a state: the window's SE (~0.03) makes 0.52 indistinguishable from half
    const mixed = [0.25, 0.25, 0.25, 0.25];
    const near = [0.52, 0.16, 0.16, 0.16];
    expect(spreading(ring((t) => (t < 6 ? OWN : { chat: mixed, code: near, math: near })))).toEqual([]);
  });

  it('with 16 samples a state, an I(S;B) already near 0 falling by less than its estimate\'s bias does not ring', () => {
    // the states alike from the start (I(S;B) ≈ 0.03 nats); the template then answers 70 % of each
    const before: Record<string, number[]> = { chat: [0.45, 0.25, 0.15, 0.15], code: [0.45, 0.15, 0.25, 0.15], math: [0.45, 0.15, 0.15, 0.25] };
    const after = [0.7, 0.1, 0.1, 0.1];
    expect(spreading(ring((t) => (t < 8 ? before : { chat: after, code: after, math: after }), 24, 16))).toEqual([]);
  });

  it('behaviors merely present in every state, I(S;B) falling as the states mix, is not spreading', () => {
    // from step 8 every state answers with all four behaviors alike: I(S;B) → 0, no behavior answers most of any state
    const mixed = [0.25, 0.25, 0.25, 0.25];
    expect(spreading(ring((t) => (t < 8 ? OWN : { chat: mixed, code: mixed, math: mixed })))).toEqual([]);
  });

  it('a template answering two states from the start, I(S;B) steady, is not spreading (it did not spread)', () => {
    expect(spreading(ring(() => ({ chat: OWN.chat, code: TAKEN, math: TAKEN })))).toEqual([]);
  });

  it('re-arms only after the template answers most of fewer than 2 states, then rings again', () => {
    const rung = ring((t) => (t >= 8 && t < 16) || t >= 24 ? { ...OWN, math: TAKEN, code: TAKEN } : OWN, 36);
    expect(spreading(rung).map((x) => x.step)).toEqual([8, 24]);
  });

  it('an onset that later frames place sooner (a frame replaced) is the same onset: it does not ring again', () => {
    const a = new RunAlarms(0.05);
    const shares = (t: number, codeFrom: number) => ({ ...OWN, math: t >= 8 ? TAKEN : OWN.math, code: t >= codeFrom ? TAKEN : OWN.code });
    const first = Array.from({ length: 20 }, (_, i) => a.add(frame(i + 1, shares(i + 1, 12)))).flat().filter((x) => x.kind === 'template-spreading');
    expect(first.map((x) => x.step)).toEqual([12]);
    // steps 9-11 rewritten: the template had taken code from step 9; the onset is now sooner
    const again = [9, 10, 11].flatMap((t) => a.add(frame(t, shares(t, 9)))).filter((x) => x.kind === 'template-spreading');
    expect(again).toEqual([]);
  });

  it('one kind of request written two ways (alike at their start) is one kind: a behavior entering both has not spread', () => {
    const rung = ring((t) => ({ chat: t >= 10 ? TAKEN : OWN.chat, code: t >= 10 ? TAKEN : OWN.chat, math: OWN.math }));
    expect(spreading(rung)).toEqual([]);
  });

  it('states alike only through a chain of near neighbours are not one kind (complete linkage): entering both ends rings', () => {
    // chat and code start 0.15 apart, code and math 0.15, chat and math 0.3: the template enters chat and math
    const start: Record<string, number[]> = { chat: [0.1, 0.6, 0.15, 0.15], code: [0.1, 0.45, 0.3, 0.15], math: [0.1, 0.3, 0.45, 0.15] };
    const s = spreading(ring((t) => ({ chat: t >= 10 ? TAKEN : start.chat, code: start.code, math: t >= 10 ? TAKEN : start.math })));
    expect(s).toHaveLength(1);
    expect(s[0].message).toMatch(/answers 2 of 3 states \(chat, math\)/);
  });

  it('a state measured no more (merged into another) stops counting after two windows: its old share is no state answered now', () => {
    // the template answers most of code at steps 8-12; code is then merged away (no samples from step 13);
    // math is taken from step 30, long after code was last measured
    const rung = ringWithout('code', 12, (t) => ({ ...OWN, code: t >= 8 ? TAKEN : OWN.code, math: t >= 30 ? TAKEN : OWN.math }), 40);
    expect(spreading(rung)).toEqual([]);
    // while code was still measured, the same template entering math rings (the rule sees both)
    const b = new RunAlarms(0.05);
    const live = Array.from({ length: 24 }, (_, i) => b.add(frame(i + 1, { ...OWN, code: i + 1 >= 8 ? TAKEN : OWN.code, math: i + 1 >= 12 ? TAKEN : OWN.math }))).flat();
    expect(spreading(live).map((x) => x.step)).toEqual([12]);
  });

  it('counts the states measured at its step: a phrasing joined to its kind earlier is not one of them', () => {
    // chat is measured at steps 1-5 only (then joined to another state); the template takes code and math at step 12
    const rung = ringWithout('chat', 5, (t) => ({ ...OWN, code: t >= 12 ? TAKEN : OWN.code, math: t >= 12 ? TAKEN : OWN.math }), 24);
    expect(spreading(rung).map((x) => x.message)).toEqual([expect.stringMatching(/answers 2 of 2 states \(code, math\)/)]);
  });

  it('says how I(S;B) moved: fell, rose, or still the same at two decimals', () => {
    const base = { step: 15, behavior: 'great-question', states: ['sum', 'capital'], of: 14 };
    expect(describeSpreading({ ...base, infoStart: 0.62, infoNow: 0.31 })).toBe('template spreading: behavior great-question answers 2 of 14 states (sum, capital); I(S;B) fell from 0.62 to 0.31 nats');
    expect(describeSpreading({ ...base, infoStart: 0.351, infoNow: 0.349 })).toMatch(/; I\(S;B\) still 0\.35 nats$/);
    expect(describeSpreading({ ...base, infoStart: 0.3, infoNow: 0.35 })).toMatch(/I\(S;B\) rose from 0\.30 to 0\.35 nats$/);
  });
});
