// The export targets: python alone, or the module with a trainer's adapter appended; a gate reading a
// field the trainer cannot provide is refused naming the field and why; built-in gates by name.
import { describe, expect, it } from 'vitest';
import { METHOD_NAMES } from '../../config';
import { builtinGateText } from '../builtin';
import { BUILTIN_GATE_NAMES, builtinGateByName, exportFileName, exportGate, ExportRefused, type AdapterLike } from './targets';

const KNOBS = { atLeastOne: true, maskZeroMode: 'keep', wOpd: 1, wRl: 1, normalizeStd: true, dynamicSampling: false } as const;
const fake: AdapterLike = { target: 'trl', title: 'TRL stand-in', unavailable: { votes: 'the reward function sees completions, not the judge', hint_len: 'no hints' }, python: 'def trl_hook():\n    return decide([])\n' };
const o = { labVersion: 'test', adapters: { trl: fake } };

describe('exportGate', () => {
  it('python: the module alone; a trainer: the module, then its adapter', () => {
    const py = exportGate('true => mask1 rl', 'python', o);
    expect(py).toContain('def decide(samples, session_keys=None, judged=None):');
    expect(py).not.toContain('trl_hook');
    const trl = exportGate('true => mask1 rl', 'trl', o);
    expect(trl.startsWith(py)).toBe(true);
    expect(trl.indexOf('def trl_hook')).toBeGreaterThan(trl.indexOf('def decide('));
    expect(exportFileName('trl')).toBe('gate_trl.py');
  });

  it('refuses a gate reading a field the trainer cannot provide, naming each field and why; the decision\'s own reads count too', () => {
    expect(() => exportGate('votes_pos > 0 && count(votes, 1) > 1 => drop\ntrue => mask1 rl', 'trl', o)).toThrow(
      'this gate cannot be exported to trl: it reads "votes", which trl cannot provide: the reward function sees completions, not the judge',
    );
    // opd reads hint_len (uses_hint), though no condition names it
    try {
      exportGate('true => mask1 opd', 'trl', o);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ExportRefused);
      expect((e as ExportRefused).fields).toEqual([{ field: 'hint_len', reason: 'no hints' }]);
    }
    expect(exportGate('votes_pos > 0 => drop', 'python', o)).toContain('READS = frozenset(["votes_pos"])');
    expect(() => exportGate('true => drop', 'verl', o)).toThrow('no adapter for verl');
    expect(() => exportGate('x => drop', 'python', o)).toThrow('unknown field "x"');
  });

  it('built-in gates by name: every method, with the knobs given, and the whole-session variant', () => {
    expect(BUILTIN_GATE_NAMES.filter((n) => n !== 'binary-rl-whole-session')).toEqual([...METHOD_NAMES]);
    for (const method of METHOD_NAMES) expect(builtinGateByName(method, KNOBS)).toBe(builtinGateText({ ...KNOBS, method }));
    expect(builtinGateByName('binary-rl-whole-session', KNOBS)).toContain('session_first_judged');
    expect(builtinGateByName('constructor', KNOBS)).toBeNull();
  });
});
