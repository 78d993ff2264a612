// Command-line values, the same in every CLI: node:util parseArgs for the flags, strict decimal
// numbers for their values (never Number()'s "0x1", " 1", "1e0" or "abc" as NaN), the schema's
// ranges for the settings a flag stands for, and one UsageError (exit 2) for a bad command line.
import { errorText } from '../core/unknown';
import { readFileSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { describeValue, fieldSpec, parseDecimal, parseWholeNumber, type ConfigKey } from '../core/config';

/** A bad command line (exit 2), as opposed to a bad file or a failing run (exit 1). */
export class UsageError extends Error {}

/**
 * node:util parseArgs; an unknown flag or a missing value is a UsageError. `--flag VALUE` of a string
 * option is read as `--flag=VALUE`, so that a value starting with "-" (`--seed -5`) reaches the
 * value's own check and its message rather than parseArgs' "ambiguous" one.
 */
export function parseFlags<O extends NonNullable<ParseArgsConfig['options']>>(argv: readonly string[], options: O, allowPositionals = false) {
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].startsWith('--') ? argv[i].slice(2) : null;
    const takesValue = name !== null && Object.hasOwn(options, name) && options[name].type === 'string';
    if (takesValue && i + 1 < argv.length) args.push(`${argv[i]}=${argv[++i]}`);
    else args.push(argv[i]);
  }
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (e) {
    throw new UsageError(errorText(e));
  }
}

/** `-h`/`--help`, which every CLI's command line takes (parseCommandLine adds it). */
const HELP = { help: { type: 'boolean', short: 'h' } } as const;

/**
 * A CLI's prologue in one place: the flags and positionals of `argv` (parseFlags, with `--help`
 * added), or the exit code to end with now — 0 after printing `usage` for --help, 2 after printing
 * the error and `usage` for a bad command line (an unknown flag, a missing value).
 */
export function parseCommandLine<O extends NonNullable<ParseArgsConfig['options']>>(options: O, usage: string, argv: readonly string[] = process.argv.slice(2), allowPositionals = true) {
  let args;
  try {
    args = parseFlags(argv, { ...options, ...HELP }, allowPositionals);
  } catch (e) {
    console.error(`${errorText(e)}\n${usage}`);
    return { exit: 2 } as const;
  }
  if ((args.values as { help?: boolean }).help) {
    console.log(usage);
    return { exit: 0 } as const;
  }
  return args;
}

/**
 * `--name N`: a whole number in decimal digits within [min, max]; undefined when not given. One rule
 * and one message for every bad value ("0", "-1", "1.5", "abc" alike), which names the range.
 */
export function wholeNumber(name: string, text: string | undefined, min = 0, max = Infinity): number | undefined {
  if (text === undefined) return undefined;
  const v = parseWholeNumber(text);
  if (v === null || v < min || v > max) throw new UsageError(`${name} needs a whole number ${max === Infinity ? `≥ ${min}` : `in [${min}, ${max}]`}, got ${describeValue(text)}`);
  return v;
}

/** `--name X`: a decimal number > 0; undefined when not given. */
export function positiveNumber(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const v = parseDecimal(text);
  if (v === null || !Number.isFinite(v) || v <= 0) throw new UsageError(`${name} needs a number > 0, got ${describeValue(text)}`);
  return v;
}

/** A flag that stands for a whole-number setting (--steps, --seed): decimal digits, the schema's range. */
export function settingNumber(name: string, key: ConfigKey, text: string | undefined): number | undefined {
  const f = fieldSpec(key);
  if (f.type !== 'int') throw new TypeError(`${key} is not a whole-number setting`);
  return wholeNumber(name, text, f.min, f.max);
}

/** `--name VALUE` that must not be empty. */
export function nonEmpty(name: string, text: string | undefined): string | undefined {
  if (text === '') throw new UsageError(`${name} needs a value, got ""`);
  return text;
}

/** Where an array job's index comes from, in order: the flag, then the schedulers' variables. */
export const INDEX_SOURCES = ['SLURM_ARRAY_TASK_ID', 'JOB_COMPLETION_INDEX'] as const;

/** The array index: --index, else $SLURM_ARRAY_TASK_ID, else $JOB_COMPLETION_INDEX; strict decimals all. */
export function arrayIndex(flag: string | undefined, env: Readonly<Record<string, string | undefined>>): number {
  const sources: [string, string | undefined][] = [['--index', flag], ...INDEX_SOURCES.map((k): [string, string | undefined] => [k, env[k]])];
  const found = sources.find(([, v]) => v !== undefined && v !== '');
  if (!found) throw new UsageError(`give --index I (or run under a Slurm array / Kubernetes Indexed Job: ${INDEX_SOURCES.join(', ')}), or --list / --all`);
  return wholeNumber(found[0], found[1])!;
}

/** --pretrain-steps / --pretrain-lr / --base, checked (a bad value never reaches training). */
export function baseFlags(v: { base?: string; 'pretrain-steps'?: string; 'pretrain-lr'?: string }): { base?: string; pretrainSteps?: number; pretrainLr?: number } {
  return { base: nonEmpty('--base', v.base), pretrainSteps: wholeNumber('--pretrain-steps', v['pretrain-steps']), pretrainLr: positiveNumber('--pretrain-lr', v['pretrain-lr']) };
}

/** The header comment of a CLI's source file (its usage), for --help. */
export function usageOf(sourceUrl: string, lines: number): string {
  return readFileSync(new URL(sourceUrl), 'utf8').split('\n').slice(0, lines).join('\n');
}
