// `npm run import -- … --fit-task F --simulate-seeds N --forecast-from T`: the flags checked, and on
// the tabular engine (2 seeds, small settings) the band and a forecast written as words and JSON.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { simulateFlags } from './fit-simulate';

const ROOT = join(import.meta.dirname, '../..');
const EX = join(ROOT, 'public/examples');
const dir = mkdtempSync(join(tmpdir(), 'invlab-simulate-'));

describe('the simulate flags', () => {
  it('need --fit-task and --simulate-seeds, and say which is wrong', () => {
    const bad: string[] = [];
    expect(simulateFlags({ 'forecast-from': '5' }, bad)).toBeUndefined();
    expect(bad).toEqual(['--forecast-from needs --simulate-seeds N']);
    const bad2: string[] = [];
    simulateFlags({ 'simulate-seeds': '0', 'forecast-from': '5,x', 'simulate-engine': 'gpu', 'simulate-set': ['lr=fast'] }, bad2);
    expect(bad2.join('\n')).toMatch(/needs --fit-task[\s\S]*1\.\.64, got 0[\s\S]*--forecast-from: expected steps[\s\S]*wasm or tabular, got gpu[\s\S]*--simulate-set config\.lr: expected a decimal/);
    const ok = simulateFlags({ 'fit-task': 'f.json', 'simulate-seeds': '3', 'forecast-from': '5,10', 'simulate-preset': 'a-support-collapse', 'simulate-set': ['lr=0.001'] }, []);
    expect(ok).toMatchObject({ seeds: [1, 2, 3], from: [5, 10], engine: 'wasm', settings: { method: 'binary-rl', rolloutBatch: 64, lr: 0.001 } });
  });

  it('train the band and a forecast and write both (tabular engine)', () => {
    const out = join(dir, 'sim.json');
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/import.ts'), '--format', 'verl', join(EX, 'verl'), '--states', join(EX, 'states.json'), '--behaviors', join(EX, 'behaviors-regex.json'),
      '--fit-task', join(dir, 'task.json'), '--simulate-seeds', '2', '--forecast-from', '17', '--simulate-engine', 'tabular', '--simulate-set', 'rolloutBatch=16', '--simulate-set', 'behaviorSamples=16', '--simulate-out', out], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/simulating "fitted verl" from step 1 for 19 steps at seeds 1, 2 \(tabular\)/);
    expect(r.stderr).toMatch(/code: the log is inside the band at \d+ of 76 behavior × step points/);
    expect(r.stderr).toMatch(/forecast from step 17, steps 18–20, 2 seeds/);
    expect(r.stderr).toMatch(/every state: mean error 0\.\d{3} .* vs naive 0\.\d{3}/);
    const json = JSON.parse(readFileSync(out, 'utf8'));
    expect(json.band.anchor).toBe(1);
    expect(json.band.runs).toHaveLength(2);
    expect(json.forecasts[0].report.states[0].rows.map((x: { step: number }) => x.step)).toEqual([18, 19, 20]);
  });
});
