// The CLI's budget guard: a backtracking match runs inside node:vm with a timeout of what is left
// of its file's budget; V8 interrupts a RegExp mid-backtrack at the timeout, so no pattern can hang
// the import. ~0.1 ms a match (vm's watchdog), paid only by patterns RE2 cannot run.
import vm from 'node:vm';
import { REGEX_BUDGET_MS, regexBudgetMessage } from '../../core/import/rules/regex';
import type { BacktrackGuard } from './engine';

export function nodeGuard(budgetMs = REGEX_BUDGET_MS): BacktrackGuard {
  const spent = new Map<string, number>();
  const context = vm.createContext({ job: null as (() => unknown) | null });
  const script = new vm.Script('job()');
  return {
    run(rule, at, f) {
      const used = spent.get(at.file) ?? 0;
      const left = budgetMs - used;
      if (left <= 0) throw new Error(regexBudgetMessage(rule, at, budgetMs));
      context.job = f;
      const t0 = performance.now();
      try {
        return script.runInContext(context, { timeout: Math.max(1, Math.ceil(left)) }) as ReturnType<typeof f>;
      } catch (e) {
        if ((e as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new Error(regexBudgetMessage(rule, at, budgetMs));
        throw e;
      } finally {
        context.job = null;
        spent.set(at.file, used + performance.now() - t0);
      }
    },
  };
}
