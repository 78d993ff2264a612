// `npm run import -- … --fit-task spec.json`: the fit's flags, checked strictly, and its output —
// the fitted spec (checked by the core's validator before it is written) and its notes on stderr.
import type { MeasureResult } from '../core/import/analyze';
import { parseWholeNumber } from '../core/config';
import { fitTask, type FitOptions, type FitResult } from '../core/tasks/fit';
import { describeSpecErrors, validateTaskSpec } from '../core/tasks/validate';
import { UsageError } from './args';
import { jsonText, writeTextFile } from './files';

/** `A..B` or `A` (whole numbers, A ≤ B) as an inclusive step window. */
export function stepWindowFlag(name: string, text: string | undefined): [number, number] | undefined {
  if (text === undefined) return undefined;
  const m = /^(\d+)(?:\.\.(\d+))?$/.exec(text);
  const a = m ? parseWholeNumber(m[1]) : null;
  const b = m ? (m[2] === undefined ? a : parseWholeNumber(m[2])) : null;
  if (a === null || b === null || a > b) throw new UsageError(`${name} needs a step or a window FIRST..LAST (whole numbers, FIRST ≤ LAST), got ${JSON.stringify(text)}`);
  return [a, b];
}

export function fitFlags(v: { 'fit-base-steps'?: string; 'fit-truth-steps'?: string; 'fit-name'?: string; 'fit-task'?: string }): FitOptions {
  const given = v['fit-base-steps'] ?? v['fit-truth-steps'] ?? v['fit-name'];
  if (given !== undefined && !v['fit-task']) throw new UsageError('--fit-base-steps / --fit-truth-steps / --fit-name need --fit-task FILE');
  if (v['fit-task'] === '') throw new UsageError('--fit-task needs a file name');
  return { baseSteps: stepWindowFlag('--fit-base-steps', v['fit-base-steps']), truthSteps: stepWindowFlag('--fit-truth-steps', v['fit-truth-steps']), name: v['fit-name'] };
}

/** Fit, check and write the spec; the notes to stderr (questions to the user marked "?"). The fit, for what trains it next. */
export function writeFit(r: MeasureResult, o: FitOptions, file: string): FitResult {
  const fit = fitTask(r, o);
  const check = validateTaskSpec(JSON.parse(JSON.stringify(fit.spec)));
  if (!check.ok) throw new Error(`the fitted spec does not validate (a bug in the fit): ${describeSpecErrors(check.errors, 5)}`);
  writeTextFile(file, `${jsonText(fit.spec, 1)}\n`, '--fit-task');
  console.error(`fitted task "${fit.spec.name}" (${fit.spec.kind}, ${fit.spec.states.length} states × ${fit.spec.behaviors.length} behaviors; base mix from steps ${fit.baseSteps.join('..')}, judge truth from steps ${fit.truthSteps.join('..')}) → ${file}`);
  for (const n of fit.notes) console.error(`  ${n.ask ? '?' : '-'} ${n.path || '(spec)'}: ${n.message}`);
  const asks = fit.notes.filter((n) => n.ask).length;
  console.error(`${asks} question${asks === 1 ? '' : 's'} above (marked ?): the fit put a stated default where the log says nothing. Train it: npm run lab -- --task-file ${file}${Object.entries(fit.settings).map(([k, v]) => ` --set ${k}=${v}`).join('')}`);
  return fit;
}
