// runCell and runCellsTogether await `afterStep` after every step: the `--jobs` main thread yields
// there to its worker threads' messages. A step's own awaits are microtasks only, so without the
// hook no event of the thread is handled until the run ends.
import { describe, expect, it } from 'vitest';
import { policyShape } from '../pretrain';
import { createTabularEngine } from '../../engine/tabular/tabular-engine';
import { TabularPopulation } from '../../engine/tabular/tabular-population';
import { runCell, runCellsTogether } from './run-cell';
import { experimentCell, parseExperimentSpec } from './spec';

const spec = parseExperimentSpec({
  version: 1, name: 'tiny', base: { task: 'strategies', method: 'grpo', rolloutBatch: 8, groupSize: 4, behaviorSamples: 8, lr: 0.05 },
  variants: [{ name: 'A', patch: {} }], seeds: [1, 2], steps: 4,
});
/** An afterStep hook that yields one event-loop turn, as the `--jobs` main thread's does, counting its calls. */
function yieldingHook() {
  const hook = {
    calls: 0,
    afterStep: async () => {
      hook.calls++;
      await new Promise<void>((resolve) => setImmediate(resolve));
    },
  };
  return hook;
}

/** Event-loop turns counted by a chain of setImmediate callbacks, read at every frame. */
function turnCounter() {
  let turns = 0;
  let on = true;
  const tick = () => {
    turns++;
    if (on) setImmediate(tick);
  };
  setImmediate(tick);
  const seen: number[] = [];
  return { onFrame: () => seen.push(turns), seen, stop: () => (on = false) };
}

describe('runCell: afterStep', () => {
  it('is awaited after every step, so events are handled between steps; without it, none is', async () => {
    for (const withHook of [true, false]) {
      const cell = experimentCell(spec, 0);
      const engine = createTabularEngine(policyShape(cell.config));
      const turns = turnCounter();
      const hook = yieldingHook();
      const run = await runCell(engine, cell, { onFrame: turns.onFrame, ...(withHook ? { afterStep: hook.afterStep } : {}) });
      turns.stop();
      expect(run.frames).toHaveLength(4);
      const between = turns.seen.slice(1).map((t, i) => t - turns.seen[i]);
      if (withHook) {
        expect(hook.calls).toBe(4);
        expect(between.every((d) => d > 0), `turns at the frames: ${turns.seen}`).toBe(true);
      } else expect(between, 'the steps alone never yield (the test would check nothing otherwise)').toEqual([0, 0, 0]);
    }
  });

  it('runCellsTogether awaits it once per population step', async () => {
    const cells = [experimentCell(spec, 0), experimentCell(spec, 1)];
    const engine = new TabularPopulation(policyShape(cells[0].config), 2);
    const turns = turnCounter();
    const hook = yieldingHook();
    const runs = await runCellsTogether(engine, cells, (p) => ({ ...(p === 0 ? { onFrame: turns.onFrame } : {}), afterStep: hook.afterStep }));
    turns.stop();
    expect(runs.map((r) => r.frames.length)).toEqual([4, 4]);
    expect(hook.calls).toBe(4);
    expect(turns.seen.slice(1).every((t, i) => t > turns.seen[i]), `turns at the frames: ${turns.seen}`).toBe(true);
  });
});
