import { describe, expect, it } from 'vitest';
import { EFFECTIVE_COLOUR, funnelColours } from './funnel-colours';
import type { FunnelStage } from './data';

const stage = (key: FunnelStage['key'], parts: FunnelStage['parts'] = []): FunnelStage => ({ key, label: key, count: 10, parts, estimated: false });
/** Binary RL's gated row: two mask-1 rules, one of them named "effective". */
const binaryRl = [stage('served'), stage('judged'), stage('gated', [{ label: 'no next state', count: 1, kind: 'mask0' }, { label: 'at-least-one', count: 2, kind: 'mask1' }, { label: 'score zero', count: 3, kind: 'mask0' }, { label: 'effective', count: 4, kind: 'mask1' }]), stage('queued'), stage('effective')];

describe('the sample funnel\'s colour table', () => {
  it('gives the effective bar a colour of its own, not a rule\'s (a rule named "effective" was blue, the bar green like at-least-one)', () => {
    const c = funnelColours([binaryRl]);
    const ruleColours = [...c.parts.values()];
    expect(ruleColours).not.toContain(c.stage('effective'));
    expect(ruleColours).not.toContain(c.stage('queued'));
    expect(new Set(ruleColours).size).toBe(ruleColours.length);
    expect(c.stage('effective')).toBe(EFFECTIVE_COLOUR);
  });
  it('the legend holds each bar\'s colour under its label', () => {
    const c = funnelColours([binaryRl]);
    const legend = new Map(c.legend);
    for (const [label, colour] of c.parts) expect(legend.get(label)).toBe(colour);
    expect(legend.get('effective (mask 1, non-zero advantage)')).toBe(c.stage('effective'));
    expect(legend.get('samples per stage')).toBe(c.stage('served'));
  });
  it('a label in both runs keeps the first run\'s colour', () => {
    const other = [stage('gated', [{ label: 'effective', count: 1, kind: 'mask1' }])];
    expect(funnelColours([binaryRl, other]).parts.get('effective')).toBe(funnelColours([binaryRl]).parts.get('effective'));
  });
});
