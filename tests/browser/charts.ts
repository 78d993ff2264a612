/** Chart fixture page for e2e tests: a LineChart with fixed data; `window.chartSvg()` exports. */
import { mount } from 'svelte';
import LineChart from '../../src/ui/charts/LineChart.svelte';
import { serializeSvg, svgToPng } from '../../src/ui/charts/export';
import type { Series } from '../../src/ui/charts/series';

const steps = Array.from({ length: 50 }, (_, i) => i * 2);
const series: Series[] = [
  { key: 'support/token_entropy', label: 'token', color: '#0072B2', points: steps.map((s) => ({ step: s, value: 2 - s / 100 })) },
  { key: 'support/behavior_entropy/s0', label: 'behavior s0', color: '#D55E00', dashed: true, points: steps.map((s) => ({ step: s, value: Math.exp(-s / 30) })) },
];

const target = document.getElementById('app');
if (!target) throw new Error('#app missing');
mount(LineChart, {
  target,
  props: { title: 'Fixture chart', series, yLabel: 'nats', height: 240, thresholds: [{ value: 0.5, label: 'ε' }] },
});

declare global {
  interface Window {
    chartSvg(): string;
    chartPngSize(): Promise<number>;
  }
}
const svg = (): SVGSVGElement => {
  const el = document.querySelector('svg');
  if (!el) throw new Error('no svg');
  return el;
};
window.chartSvg = () => serializeSvg(svg());
window.chartPngSize = async () => (await svgToPng(svg())).size;
document.body.dataset.ready = '1';
