// The walk of a gate rule from the editor to the loop: the text is parsed once on each side of the
// page→worker boundary. On the page, the editor's check parses it and every later reader — Apply's
// edit, the URL codec — gets the compiled gate; in the worker (modules and a compile cache of its
// own), the message's check parses it once and the loop's gateOf reuses it (docs/gates.md, "The walk").
import { describe, expect, it, vi } from 'vitest';
import { checkGateDraft, normalized } from '../../ui/gates/editor';
import { configFromQuery, configToQuery, makeConfig, withField } from '../config';
import { recorder, tabularSessionDeps } from '../../../tests/support/session-deps';
import { gateOf } from './builtin';
import { gateParses } from './compile';

describe('a gate rule from the editor to the loop', () => {
  it('is parsed once on the page side: the editor\'s check; Apply, the URL and the loop reuse it', () => {
    const typed = '\n  votes_pos > 0 && votes_neg > 0 => drop # votes disagree   \ntrue => mask1 rl\n\n';
    const start = gateParses();
    const check = checkGateDraft(typed); // every keystroke: the text Apply would send
    expect(check.problems).toEqual([]);
    expect(gateParses()).toBe(start + 1);
    const config = withField(makeConfig(), 'gate', normalized(typed)); // Apply: Lab.setField → LabSettings.setField
    const back = configFromQuery(configToQuery(config)); // the URL follows the settings
    expect(back.errors).toEqual([]);
    const gate = gateOf(back.config); // the loop asks every serve round
    expect(gate).toBe(check.gate);
    expect(gate.rules.map((r) => r.label)).toEqual(['votes disagree', '']);
    expect(gateParses()).toBe(start + 1);
  });

  it('is parsed once in the worker: the message\'s check (RunSession.setConfig); the loop reuses it', async () => {
    const text = normalized('votes_pos > 0 && votes_neg > 0 => drop # votes disagree\ntrue => mask1 rl');
    const message = structuredClone({ gate: text }); // RunState.patch → comlink
    // the worker is another thread: modules of its own, so a compile cache of its own
    vi.resetModules();
    const { RunSession } = await import('../run/session');
    const worker = await import('./compile');
    const s = new RunSession(tabularSessionDeps(), recorder().listener, makeConfig({ task: 'assistant', method: 'binary-rl', lr: 0.05, behaviorSamples: 8, rolloutBatch: 8, judgeNoise: 0.5 }));
    await s.init();
    const start = worker.gateParses();
    expect(await s.setConfig(message)).toBeNull(); // applyPatch → checkField('gate') → compileGate
    expect(worker.gateParses()).toBe(start + 1);
    const st = await s.step(2); // Run.step → gateOf(config) every serve round
    expect(st.config.gate).toBe(text);
    expect(worker.gateParses()).toBe(start + 1);
    await s.dispose();
  });
});
