// The walk of a gate rule from the editor to the loop on one side of a boundary: the text is parsed
// once (the editor's check), and every later reader — Apply's setting check, the URL codec, the
// loop's gateOf — gets the compiled gate without parsing again (docs/gates.md, "The walk").
import { describe, expect, it } from 'vitest';
import { checkDraft, normalized } from '../../ui/gates/editor';
import { configFromQuery, configToQuery, makeConfig } from '../config';
import { gateOf } from './builtin';
import { gateParses } from './compile';

describe('a gate rule from the editor to the loop', () => {
  it('is parsed once on the page side: the editor\'s check; Apply, the URL and the loop reuse it', () => {
    const typed = '\n  votes_pos > 0 && votes_neg > 0 => drop # votes disagree   \ntrue => mask1 rl\n\n';
    const start = gateParses();
    const check = checkDraft(typed); // every keystroke: the text Apply would send
    expect(check.problems).toEqual([]);
    expect(gateParses()).toBe(start + 1);
    const config = makeConfig({ gate: normalized(typed) }); // Apply: the config patch is validated
    const back = configFromQuery(configToQuery(config)); // the URL follows the settings
    expect(back.errors).toEqual([]);
    const gate = gateOf(back.config); // the loop asks every serve round
    expect(gate).toBe(check.gate);
    expect(gate.rules.map((r) => r.label)).toEqual(['votes disagree', '']);
    expect(gateParses()).toBe(start + 1);
  });
});
