/**
 * Views fixture page: every chart view of src/ui/views rendered from recorded real runs
 * (tests/browser/fixtures/*.json, written by fixtures/record.ts: the core loop on the onnxruntime-web
 * Node engine). `?only=<view>` renders one view; `window.viewsReady` is set when mounted.
 */
import { mount, type Component } from 'svelte';
import '../../src/ui/page.css';
import { defaultConfig, type Config } from '../../src/core/config';
import type { MetricsFrame } from '../../src/core/metrics';
import BehaviorArea from '../../src/ui/views/BehaviorArea.svelte';
import DivergencePlot from '../../src/ui/views/DivergencePlot.svelte';
import InvariantPanels from '../../src/ui/views/InvariantPanels.svelte';
import RatioHistogram from '../../src/ui/views/RatioHistogram.svelte';
import SampleFunnel from '../../src/ui/views/SampleFunnel.svelte';
import SampleInspector from '../../src/ui/views/SampleInspector.svelte';
import SupportHeatmap from '../../src/ui/views/SupportHeatmap.svelte';
import main from './fixtures/a-lr3e-4.json';
import fast from './fixtures/a-support-collapse.json';
import clip from './fixtures/b-clip-higher.json';
import combine from './fixtures/f-combine-gating.json';

interface Fixture {
  meta: { preset: string; config: Config; command: string };
  frames: MetricsFrame[];
}
// fixtures recorded before a setting existed (e.g. `gate`) read as that setting's default
const fixture = (f: unknown): Fixture => {
  const x = f as Fixture;
  return { ...x, meta: { ...x.meta, config: { ...defaultConfig(), ...x.meta.config } } };
};
const runA = fixture(main);
const runB = fixture(fast);
const runClip = fixture(clip);
const runCombine = fixture(combine);

const app = document.getElementById('app')!;
const h1 = document.createElement('h1');
h1.textContent = 'Invariant Lab — views on recorded runs';
const src = document.createElement('p');
src.className = 'src';
src.textContent = `Run: preset ${runA.meta.preset}, lr ${runA.meta.config.lr} (solid); compare: lr ${runB.meta.config.lr} (dashed). Recorded with: ${runA.meta.command}`;
app.append(h1, src);

function place<P extends Record<string, unknown>>(id: string, view: Component<P>, props: P, wide = false): void {
  const only = new URLSearchParams(location.search).get('only');
  if (only && only !== id) return;
  const el = document.createElement('section');
  el.id = id;
  el.dataset.view = id;
  if (wide) el.className = 'wide';
  app.append(el);
  mount(view, { target: el, props });
}

// ?empty=1: every view before the first frame arrives
if (new URLSearchParams(location.search).has('empty')) for (const r of [runA, runB, runClip, runCombine]) r.frames = [];
const base = { history: runA.frames, latest: runA.frames.at(-1), traces: runA.frames.at(-1)?.trace ?? [], config: runA.meta.config };
const epsLog: number[] = [];
place('divergence', DivergencePlot, { ...base, compare: runB.frames, compareLabel: `same preset, lr ${runB.meta.config.lr}`, state: 'mean', onEpsChange: (e: number) => epsLog.push(e) }, true);
place('behavior-area', BehaviorArea, { ...base, compare: runB.frames }, true);
place('support-heatmap', SupportHeatmap, { ...base, compare: runB.frames, state: 'math' }, true);
place('invariants', InvariantPanels, { ...base, compare: runB.frames }, true);
// The clip only binds with K > 1: the ratio views show the clip-higher preset (GRPO, K = 8).
place('ratio', RatioHistogram, { history: runClip.frames, config: runClip.meta.config });
place('funnel', SampleFunnel, { history: runCombine.frames, config: runCombine.meta.config, compare: runB.frames, compareLabel: `binary-rl (${runB.meta.preset})` });
place('inspector', SampleInspector, { history: runCombine.frames, config: runCombine.meta.config }, true);

declare global {
  interface Window {
    viewsReady: boolean;
    epsLog: number[];
  }
}
window.epsLog = epsLog;
window.viewsReady = true;
document.body.dataset.ready = '1';
