// OpenClaw-RL's OPD and Combine servers, patched by the openclaw-opd adapter, under python3 against
// stand-ins holding the servers' decision code verbatim (tests/fixtures/trainers/
// openclaw_opd_api_server.py, openclaw_combine_api_server.py): generated sessions (hints accepted,
// rejected, too short; eval votes with ties; judges that fail; multi-turn sessions whose last turn
// is never judged; judges finishing out of turn order, sessions ending before their judges). The
// built-in OPD and Combine gates must submit what the unpatched servers submit, and every gate what
// the core's decideInOrder decides in the servers' judging order.
import { describe, expect, it } from 'vitest';
import { exported, runAdapter } from '../../../../../tests/support/adapter-python';
import type { Rec } from '../../../../../tests/support/adapter-expected';
import { decidedTurns, expectedSamples, scenarios, type Judge, type Scenario, type Submitted } from '../../../../../tests/support/openclaw-opd-scenarios';
import { scaled } from '../../../../../tests/support/speed';
import { ExportRefused, builtinGateByName, exportGate } from '../targets';
import { ADAPTERS } from './index';

const KNOBS = { atLeastOne: true, maskZeroMode: 'keep', wOpd: 1, wRl: 1, normalizeStd: true, dynamicSampling: false } as const;
const OPD = builtinGateByName('opd', KNOBS)!;
const COMBINE = builtinGateByName('combine', KNOBS)!;
/** Every field the OPD / Combine servers give, every decision, weighted terms. */
const GATE = [
  '!session_first_judged && turn == 0 => mask0 # lone unjudged turn (a judged turn 0 is the first judged)',
  '!has_next_state => drop # no next state',
  'hint_accepted && response_len == 1 => mask1 rl # accepted hint, no teacher term: the teacher is the rollout',
  'hint_accepted && hint_len % 2 == 1 && session_effective_before == 0 => mask1 rl + opd # first effective, odd words',
  'hint_accepted && reward != 0 => mask1 2*rl + 0.5*opd # both, weighted',
  'hint_accepted => mask1 0.25*opd # hint only',
  'hint_votes_pos > 0 && response_len > 3 => mask0 # a short hint proposed',
  'reward != 0 && session_first_judged => mask1 3*rl # first judged',
  'score == 0 && session_effective_before == 0 => mask1 # at-least-one',
  'reward != 0 => mask1 rl # eval only',
].join('\n');

const DRIVER = String.raw`
import asyncio, json, logging, sys
from types import SimpleNamespace
from openclaw_opd_api_server import OpenClawOPDAPIServer
from openclaw_combine_api_server import OpenClawCombineAPIServer
import gate_module
logging.disable(logging.CRITICAL)
inp = json.load(sys.stdin)
BASES = {"opd": OpenClawOPDAPIServer, "combine": OpenClawCombineAPIServer}

async def run(cls, sc):
    server = cls(args=SimpleNamespace(prm_enable=True, distill_topk=sc["topk"], eval_mode=sc["eval_mode"]))
    judges = {}
    for sid, turns in sc["sessions"].items():
        for k, t in enumerate(turns, start=1):
            td = {"prompt_ids": [5, 5], "response_ids": [9] * t["len"], "response_logprobs": t["lp"], "prompt_text": "p",
                  "response_text": "%s:%d" % (sid, k), "messages": [{"role": "user", "content": "u"}], "tools": None,
                  "has_next_state": False}
            server._pending_turn_data.setdefault(sid, {})[k] = td
            if k > 1:  # turn k arrived: the judge of turn k - 1 starts (_handle_request, lines 736-741)
                judges[(sid, k - 1)] = asyncio.get_running_loop().create_future()
                server._fire_opd_task(sid, k - 1, server._pending_turn_data[sid][k - 1],
                                      {"role": "user", "content": "next", "judge": judges[(sid, k - 1)]})
    for sid, ks in sc["events"]:
        if ks == "done":
            server._maybe_submit_ready_samples(sid, force_drop_without_next_state=True)
        for k in ks if ks != "done" else []:  # judges finishing together: submitted in turn order
            if sc["sessions"][sid][k - 1]["judge"] is None:
                judges[(sid, k)].set_exception(RuntimeError("judge down"))
            else:
                judges[(sid, k)].set_result(sc["sessions"][sid][k - 1]["judge"])
        for _ in range(8):
            await asyncio.sleep(0)
    await asyncio.gather(*[t for t in asyncio.all_tasks() if t is not asyncio.current_task()], return_exceptions=True)
    out = []
    while not server.output_queue.empty():
        _, [s] = server.output_queue.get()
        topk = getattr(s, "teacher_topk_log_probs", None)
        out.append({"key": s.response, "mask": s.loss_mask, "reward": s.reward["score"], "teacher": list(s.teacher_log_probs),
                    "index": s.index, "topk": topk.tolist() if topk is not None else None,
                    "topk_idx": s.teacher_topk_indices.tolist() if topk is not None else None})
    return {"samples": sorted(out, key=lambda s: s["index"]), "eval_scores": server.drain_eval_scores(),
            "counters": dict(getattr(server, "_session_effective", {}))}

async def main():
    cls = BASES[inp["base"]]
    gated = gate_module.openclaw_gated_opd_server(cls)
    return [{"plain": await run(cls, sc), "gated": await run(gated, sc)} for sc in inp["scenarios"]]

print(json.dumps(asyncio.run(main())))
`;

interface Run { samples: Submitted[]; eval_scores: number[]; counters: Record<string, number> }
const run = (gate: string, base: 'opd' | 'combine', scs: Scenario[]) =>
  runAdapter(exported(gate, 'openclaw-opd'), DRIVER, { base, scenarios: scs }) as { plain: Run; gated: Run }[];

const SCENARIOS = scenarios(40, 34, { topk: true });
const WEIGHTED = scenarios(40, 35, { topk: false }); // a weighted teacher term: no top-k distillation

describe('OpenClaw-RL adapter, OPD / Combine servers (their _maybe_submit_ready_samples)', () => {
  it('the scenarios reach what matters: accepted, rejected and short hints, eval ties, failed judges, unjudged last turns, judging out of turn order', () => {
    const recs: (Rec & { sc: Scenario })[] = [...SCENARIOS, ...WEIGHTED].flatMap((sc) => decidedTurns(sc).map((d) => ({ ...d.rec, sc })));
    expect(recs.some((r) => r.hint_accepted)).toBe(true);
    expect(recs.some((r) => r.has_next_state && !r.hint_accepted && (r.hint_votes_pos as number) > 0)).toBe(true);
    expect(recs.some((r) => r.has_next_state && r.sc.eval_mode && r.score === 0)).toBe(true);
    expect(recs.some((r) => !r.has_next_state && (r.turn as number) > 0)).toBe(true);
    expect(SCENARIOS.some((sc) => Object.values(sc.sessions).some((ts) => ts.slice(0, -1).some((t) => t.judge === null)))).toBe(true);
    expect(SCENARIOS.some((sc) => sc.topk > 0) && SCENARIOS.some((sc) => !sc.eval_mode)).toBe(true);
    // judges of one session finishing together, listed out of turn order (the server takes them in turn order)
    expect(WEIGHTED.some((sc) => sc.events.some(([, ks]) => ks !== 'done' && ks.length > 1 && ks[0] > ks[1]))).toBe(true);
    // a later turn judged before an earlier one of its session
    const laterFirst = (sc: Scenario) => decidedTurns(sc).some((d, i, all) => all.slice(i + 1).some((e) => e.key.split(':')[0] === d.key.split(':')[0] && (e.rec.turn as number) < (d.rec.turn as number)));
    expect(WEIGHTED.some(laterFirst)).toBe(true);
  });

  it('the built-in OPD gate submits what the unpatched OPD server submits (reward 0 where the server writes an unread 1.0)', () => {
    const res = run(OPD, 'opd', SCENARIOS);
    res.forEach(({ plain, gated }, i) => {
      expect(gated.samples).toEqual(plain.samples.map((s) => ({ ...s, reward: 0 })));
      expect(gated.eval_scores).toEqual(plain.eval_scores);
      expect(plain.samples).toEqual(expectedSamples(OPD, SCENARIOS[i]).samples.map((s) => ({ ...s, reward: 1 })));
    });
    expect(res.reduce((n, r) => n + r.plain.samples.length, 0)).toBeGreaterThan(25);
  }, scaled(60_000));

  it('the built-in Combine gate submits exactly what the unpatched Combine server submits, and decides as decideInOrder', () => {
    const res = run(COMBINE, 'combine', SCENARIOS);
    const rules = new Set<number>();
    res.forEach(({ plain, gated }, i) => {
      expect(gated).toEqual(plain);
      const want = expectedSamples(COMBINE, SCENARIOS[i]);
      expect(plain.samples).toEqual(want.samples);
      for (const d of want.decisions) rules.add(d.rule);
    });
    expect([...rules].sort()).toEqual([0, 1, 2, 3]);
  }, scaled(60_000));

  for (const base of ['opd', 'combine'] as const)
    it(`another gate decides every turn as decideInOrder in the ${base === 'opd' ? 'OPD' : 'Combine'} server's judging order, with a per-session counter and weighted terms`, () => {
      const res = run(GATE, base, WEIGHTED);
      const rules = new Set<number>();
      res.forEach(({ gated }, i) => {
        const want = expectedSamples(GATE, WEIGHTED[i]);
        expect(gated.samples).toEqual(want.samples);
        // every session ended and every judge finished: no counter entry is left behind
        expect(gated.counters).toEqual({});
        for (const d of want.decisions) rules.add(d.rule);
      });
      // sessions end while judges still run, so turns are decided on the counter cleared at the end
      expect(WEIGHTED.some((sc) => decidedTurns(sc).some((d) => d.counter !== d.key.split(':')[0] && d.rec.has_next_state))).toBe(true);
      expect([...rules].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    }, scaled(60_000));

  it('refuses what the servers cannot see, naming the field and why; hints are refused for the RL server only', () => {
    expect(() => exportGate('votes_pos > 1 => drop\ntrue => mask1 opd', 'openclaw-opd', { labVersion: 't', adapters: ADAPTERS })).toThrow(
      'it reads "votes_pos", which openclaw-opd cannot provide: the OPD / Combine servers keep only the majority of the eval votes (eval_score), not the votes',
    );
    for (const f of ['hint_len', 'hint_votes_pos', 'hint_accepted']) {
      expect(() => exportGate(GATE, 'openclaw', { labVersion: 't', adapters: ADAPTERS })).toThrow(ExportRefused);
      expect(ADAPTERS.openclaw.unavailable).toHaveProperty(f);
      expect(ADAPTERS['openclaw-opd'].unavailable).not.toHaveProperty(f);
    }
    expect(exportGate(COMBINE, 'openclaw-opd', { labVersion: 't', adapters: ADAPTERS })).toContain('def openclaw_gated_opd_server(base):');
  });

  it('a weighted teacher term under top-k distillation is refused when the server is built (with the reason), before any turn; weight 1 trains', () => {
    const judge: Judge = { votes: [{ vote_id: 0, score: 1, hint: 'use the tool first', raw: '' }], eval_votes: [1], teacher_log_probs: [-1, -2], teacher_topk_log_probs: [[-1, -2], [-1, -2]], teacher_topk_indices: [[1, 2], [1, 2]] };
    const sc: Scenario = { eval_mode: true, topk: 2, sessions: { s0: [{ len: 2, lp: [-0.5, -0.5], judge }, { len: 1, lp: [-0.5], judge: null }] }, events: [['s0', [1]], ['s0', 'done']] };
    const driver = DRIVER.replace('print(json.dumps(asyncio.run(main())))', `try:
    print(json.dumps({"res": asyncio.run(main())}))
except ValueError as e:
    print(json.dumps({"refused": str(e)}))`);
    const weighted = runAdapter(exported('true => mask1 0.5*opd', 'openclaw-opd'), driver, { base: 'combine', scenarios: [sc] }) as { refused?: string };
    expect(weighted.refused).toBe('gate for OpenClaw-RL: this gate weights the teacher term (opd weights 0.5), which top-k distillation (--distill-topk 2) cannot: its loss is a KL to the teacher\'s top-k with no per-sample weight; export a gate whose opd terms have weight 1, or train without top-k');
    const plain = runAdapter(exported('true => mask1 opd', 'openclaw-opd'), driver, { base: 'combine', scenarios: [sc] }) as { res: { gated: Run }[] };
    // the hinted turn carries the teacher's top-k; the last turn (no next state, no hint) has none
    expect(plain.res[0].gated.samples.map((x) => x.topk)).toEqual([[[-1, -2], [-1, -2]], null]);
    expect(plain.res[0].gated.counters).toEqual({});
    // without top-k the weighted gate builds and trains
    const noTopk = runAdapter(exported('true => mask1 0.5*opd', 'openclaw-opd'), driver, { base: 'combine', scenarios: [{ ...sc, topk: 0 }] }) as { res: { gated: Run }[] };
    expect(noTopk.res[0].gated.samples.length).toBe(2);
  }, scaled(30_000));
});
