// Serving: run sessions of a task with the rollout weights, turn by turn (all active sessions of a
// turn in one engine.sample call), classify each response, let the environment react, and judge.
import type { PolicyEngine, WeightsHandle } from './engine';
import type { JudgedTurn } from './credit/types';
import { Rng, type RngStreams } from './rng';
import { INVALID, classify, responseLength } from './tasks/grammar';
import { castHintVotes, castVotes, majority } from './tasks/judge';
import type { Env, Task } from './tasks/types';
import { CONTEXT, EOS, NEW_TOKENS, PAD, PROMPT_LENGTH, promptTokens } from './tasks/vocab';

export interface ServeOptions {
  temperature: number;
  /** Initial state of every session (−1 = drawn). */
  focusState?: number;
  turns: number;
  judgeVotes: number;
  judgeNoise: number;
  hintVotes: number;
}

export interface Generated {
  tokens: Int32Array;
  logp: Float32Array;
  entropy: Float32Array;
  behavior: number[];
  responseLength: number[];
}

/**
 * Sample one response per prompt state and classify it; tokens after EOS become PAD. `hints` (hint
 * tokens or null per row) fill the hint slot; none by default.
 */
export async function generate(engine: PolicyEngine, task: Task, states: readonly number[], temperature: number, rng: Rng, weights?: WeightsHandle, hints?: readonly (number | null)[]): Promise<Generated> {
  const B = states.length;
  const T = CONTEXT - 1;
  const prompt = new Int32Array(B * CONTEXT);
  states.forEach((s, b) => prompt.set(promptTokens(task.states[s].token, hints?.[b] ?? null), b * CONTEXT));
  const res = await engine.sample({
    batch: B, prompt, promptLength: new Int32Array(B).fill(PROMPT_LENGTH), newTokens: NEW_TOKENS, temperature,
    uniforms: rng.uniforms(B * NEW_TOKENS), weights,
  });
  const tokens = res.tokens.slice();
  const logp = res.logp.slice();
  const entropy = res.entropy.slice();
  const markers = task.behaviors.map((x) => x.markers);
  const behavior: number[] = [];
  const lens: number[] = [];
  for (let b = 0; b < B; b++) {
    const resp = tokens.subarray(b * CONTEXT + PROMPT_LENGTH, (b + 1) * CONTEXT);
    const len = responseLength(resp);
    for (let i = len; i < resp.length; i++) {
      resp[i] = PAD;
      logp[b * T + PROMPT_LENGTH - 1 + i] = 0;
      entropy[b * T + PROMPT_LENGTH - 1 + i] = 0;
    }
    lens.push(len);
    behavior.push(len > 0 && resp[len - 1] === EOS ? classify(resp, markers) : INVALID);
  }
  return { tokens, logp, entropy, behavior, responseLength: lens };
}

/**
 * Serve `sessions` sessions (in groups of `groupSize` sharing their initial state) to the end.
 * Session ids start at `firstId`; groups are numbered by session id / groupSize.
 */
export async function serveSessions(
  engine: PolicyEngine, task: Task, sessions: number, groupSize: number, firstId: number, o: ServeOptions, rng: RngStreams, weights?: WeightsHandle,
): Promise<JudgedTurn[]> {
  const envs: Env[] = [];
  let groupSeed = 0;
  for (let s = 0; s < sessions; s++) {
    if (s % groupSize === 0) groupSeed = rng.env.int(2 ** 31);
    envs.push(task.newEnv(groupSize > 1 ? new Rng(groupSeed) : rng.env, o.turns, o.focusState ?? -1));
  }
  const out: JudgedTurn[] = [];
  let active = envs.map((_, i) => i);
  const T = CONTEXT - 1;
  while (active.length) {
    const g = await generate(engine, task, active.map((i) => envs[i].state), o.temperature, rng.sampling, weights);
    const still: number[] = [];
    active.forEach((i, b) => {
      const env = envs[i];
      const state = env.state;
      const turn = env.turn;
      const tr = env.act(g.behavior[b], rng.env);
      const votes = tr.hasNext ? castVotes(tr.truth, o.judgeVotes, o.judgeNoise, rng.judge) : [];
      const score = majority(votes);
      out.push({
        session: firstId + i,
        group: Math.floor((firstId + i) / groupSize),
        turn,
        state,
        tokens: g.tokens.slice(b * CONTEXT, (b + 1) * CONTEXT),
        responseLength: g.responseLength[b],
        behavior: g.behavior[b],
        rolloutLogp: g.logp.slice(b * T, (b + 1) * T),
        hasNext: tr.hasNext,
        votes,
        score,
        reward: score,
        hintVotes: tr.hasNext ? castHintVotes(tr.hintTarget, task.behaviors.length, o.hintVotes, o.judgeNoise, rng.judge) : [],
        outcome: tr.outcome,
      });
      if (!tr.done) still.push(i);
    });
    active = still;
  }
  return out;
}
