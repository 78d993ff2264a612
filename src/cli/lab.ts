// Headless lab runner: the same core loop as the browser worker, on Node.
//   npm run lab -- --preset a-support-collapse --steps 100 --seed 3 --out run.jsonl --set clipHigh=0.2
// Options: --engine wasm|tabular (tabular = the pure-TS reference engine, for quick checks),
// --base FILE (raw little-endian Float32 base weights), else the base is pretrained in process
// (--pretrain-steps N, --pretrain-lr X), --trace (include the per-sample trace in each line).
// --gate FILE (rule lines, or JSON {"rules": [...]}) and repeatable --gate-rule 'EXPR => DECISION # label'
// set the `gate` setting (the --gate-rule rules first, then the file's); bad rules name the file/rule.
// --task-file FILE trains a custom task (a JSON task spec, src/core/tasks/spec.ts); bad fields are named.
// --stop-at T pauses the run at step T (of --steps); --snapshot FILE writes its exact state where it
// stopped; --resume FILE continues such a file bit for bit (its settings, seed and weights; --steps
// and --set change live settings, recorded on the run's timeline as any patch).
// --fork-at T --fork-out FILE [--fork-set key=value ...]: at step T the run forks; both continue from
// the same state (the lab's Compare), the fork with the changed settings, its lines in FILE.
import { exitCodeOf, labMain } from './lab-main';
import { errorText } from '../core/unknown';

labMain(process.argv.slice(2)).catch((e: unknown) => {
  console.error(errorText(e));
  process.exit(exitCodeOf(e));
});
