// The page's budget guard: JavaScript cannot interrupt a RegExp on its own thread, so the import
// worker writes, before each backtracking match, its deadline and the rule, file and line into a
// SharedArrayBuffer; the page reads it while a call is in flight and ends the worker when the
// deadline has passed (import-client.ts), saying the same words as the CLI (nodeGuard).
import { REGEX_BUDGET_MS, regexBudgetMessage, type MatchSite } from '../../core/import/rules/regex';
import type { BacktrackGuard } from './engine';

const NAME_CHARS = 1024;
// Float64 [deadline (epoch ms, 0 = idle), budget ms] · Int32 [line, rule length, file length, pad] · UTF-16 rule · UTF-16 file
const HEADER = 16 + 16;
export const GUARD_BYTES = HEADER + 4 * NAME_CHARS;

interface View {
  times: Float64Array;
  ints: Int32Array;
  rule: Uint16Array;
  file: Uint16Array;
}

function view(sab: SharedArrayBuffer): View {
  return { times: new Float64Array(sab, 0, 2), ints: new Int32Array(sab, 16, 4), rule: new Uint16Array(sab, HEADER, NAME_CHARS), file: new Uint16Array(sab, HEADER + 2 * NAME_CHARS, NAME_CHARS) };
}

function put(to: Uint16Array, s: string): number {
  const n = Math.min(s.length, to.length);
  for (let i = 0; i < n; i++) to[i] = s.charCodeAt(i);
  return n;
}

const get = (from: Uint16Array, n: number) => String.fromCharCode(...from.subarray(0, n));

/** In the import worker: the guard over `sab` (GUARD_BYTES, shared with the page). */
export function sharedGuard(sab: SharedArrayBuffer, budgetMs = REGEX_BUDGET_MS): BacktrackGuard {
  const v = view(sab);
  v.times[1] = budgetMs;
  const spent = new Map<string, number>();
  let lastRule = '';
  let lastFile = '';
  return {
    run(rule, at, f) {
      const used = spent.get(at.file) ?? 0;
      const left = budgetMs - used;
      if (left <= 0) throw new Error(regexBudgetMessage(rule, at, budgetMs));
      if (rule !== lastRule) v.ints[1] = put(v.rule, (lastRule = rule));
      if (at.file !== lastFile) v.ints[2] = put(v.file, (lastFile = at.file));
      v.ints[0] = at.line;
      const t0 = performance.now();
      v.times[0] = Date.now() + left;
      try {
        return f();
      } finally {
        v.times[0] = 0;
        spent.set(at.file, used + performance.now() - t0);
      }
    },
  };
}

/** In the page: the budget message when the worker's match is past its deadline, else null. */
export function overBudget(sab: SharedArrayBuffer, now = Date.now()): string | null {
  const v = view(sab);
  const deadline = v.times[0];
  if (deadline === 0 || now <= deadline) return null;
  const at: MatchSite = { file: get(v.file, v.ints[2]), line: v.ints[0] };
  return regexBudgetMessage(get(v.rule, v.ints[1]), at, v.times[1]);
}
