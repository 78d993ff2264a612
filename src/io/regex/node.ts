// The rule-regex engine of the CLIs and Node tests: one per import, so each import's files start
// with their whole budget.
import { REGEX_BUDGET_MS, type RegexEngine } from '../../core/import/rules/regex';
import { ruleRegexEngine } from './engine';
import { nodeGuard } from './guard-node';

export const nodeRegexEngine = (budgetMs = REGEX_BUDGET_MS): RegexEngine => ruleRegexEngine(nodeGuard(budgetMs));
