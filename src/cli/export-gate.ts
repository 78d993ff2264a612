// A gate taken to the user's trainer: the gate as a Python 3 module (standard library only) whose
// decide() decides exactly as the lab, with the trainer's adapter appended for a trainer target.
//   npm run export-gate -- GATE --to python|slime|openclaw|openclaw-opd|verl|trl --out FILE
// GATE: a gate file (rule lines, or JSON {"rules": [...]}) or a built-in method's name (binary-rl,
// binary-rl-whole-session, opd, combine, grpo, dr-grpo; the default config's knobs). A gate reading
// a field the trainer's hook cannot provide is refused for that trainer, naming the field and why.
// Exit 0 = written, 1 = a bad gate file or a refused gate, 2 = bad arguments.
import { errorText } from '../core/unknown';
import { EXIT_ERROR } from './exit-codes';
import { exportGateMain } from './export-gate-main';

try {
  process.exitCode = exportGateMain(process.argv.slice(2));
} catch (e) {
  console.error(errorText(e));
  process.exitCode = EXIT_ERROR;
}
