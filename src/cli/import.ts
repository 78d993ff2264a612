// Headless import of real RL logs: the lab's measurements, one JSON line per step.
//   npm run import -- --format openclaw|verl|trl|jsonl FILES_OR_DIRS... [--states RULES.json]
//     [--behaviors RULES.json] --out metrics.jsonl [--gate GATE] [--eps 0.05] [--openclaw-batch 16]
// Without --states / --behaviors, states and behaviors are discovered from the samples (src/core/import/discover/).
// --fit-task spec.json: also fit a task spec to the import (src/core/tasks/fit.ts) and write it;
// the fit's notes (what it could not know) go to stderr; train it with `npm run lab -- --task-file
// spec.json`. --fit-base-steps A..B (default: the first step) and --fit-truth-steps A..B (default:
// every step) choose the windows of the base mix and the judge's truth; --fit-name names the task.
// --gate: a gate in the lab's rule language (text, one `CONDITION => DECISION # label` per line, or
// JSON {"rules": [...]}); each step's line then holds its counterfactual funnel (esr/*, gate/rule_counts).
// --reward COL[+COL…]: the judge's score is that field (or the sum of those fields) instead of the
// format's own reward; --reward-threshold τ[,τ']: a scalar score as a vote (r ≥ τ → +1, r ≤ τ' → −1).
// --simulate-seeds N: train the fitted task at seeds 1..N beside the log (its band, in words);
// --forecast-from T,…: forecasts from those steps against the naive one (src/cli/fit-simulate.ts).
// --jobs N: N threads (default 1): N − 1 worker threads make behavior discovery's features, the
// metrics byte for byte those of one thread (src/cli/import-jobs.ts).
// --samples-out FILE: one JSON line per sample (step, file, index, state, behavior, reward; with --gate
// its fields and decision): src/cli/samples-out.ts. A directory is read as `npm run watch` reads it (at any depth:
// verl step files, TRL completions, OpenClaw's live files or step_NNNN/ snapshots: src/cli/import-paths.ts), in step
// order; a folder with nothing to read names each file seen and why. Malformed lines are listed on
// stderr with file and line and skipped. Exit 0 = done, 1 = nothing importable, 2 = bad arguments.
import { errorText } from '../core/unknown';
import { importMain } from './import-main';

importMain(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(errorText(e));
    process.exit(1);
  },
);
