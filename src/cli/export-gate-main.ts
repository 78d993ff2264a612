// npm run export-gate's work, callable in process (tests); src/cli/export-gate.ts is the command and its usage.
import { existsSync } from 'node:fs';
import { defaultConfig } from '../core/config';
import { ADAPTERS } from '../core/gates/export/adapters/index';
import { BUILTIN_GATE_NAMES, builtinGateByName, EXPORT_TARGETS, exportGate, ExportRefused, isExportTarget } from '../core/gates/export/targets';
import { GateError } from '../core/gates';
import { parseCommandLine } from './args';
import { codeVersion } from './code-version';
import { EXIT_ERROR, EXIT_USAGE } from './exit-codes';
import { writeTextFile } from './files';
import { readGateFile } from './gate-args';

const USAGE = `usage: npm run export-gate -- GATE --to ${EXPORT_TARGETS.join('|')} --out FILE
  GATE: a gate file (rule lines or JSON {"rules": [...]}) or a built-in gate: ${BUILTIN_GATE_NAMES.join(', ')}`;

const OPTIONS = { to: { type: 'string' }, out: { type: 'string' } } as const;

/** The gate's text: a file when one exists at GATE, else a built-in gate's name. */
function gateText(gate: string): string {
  if (existsSync(gate)) return readGateFile(gate, 'GATE');
  const builtin = builtinGateByName(gate, defaultConfig());
  if (builtin === null) throw new Error(`${gate}: no such gate file, and not a built-in gate (${BUILTIN_GATE_NAMES.join(', ')})`);
  return builtin;
}

/**
 * `npm run export-gate` on the words after the script name (src/cli/export-gate.ts runs it as a
 * process): the exit code, its messages on stderr; an error it throws ends the process with exit 1.
 */
export function exportGateMain(argv: readonly string[]): number {
  const args = parseCommandLine(OPTIONS, USAGE, argv);
  if ('exit' in args) return args.exit;
  const { to, out } = args.values;
  const problems = [
    ...(args.positionals.length !== 1 ? [`expected one GATE, got ${args.positionals.length}`] : []),
    ...(to === undefined ? ['--to is required'] : isExportTarget(to) ? [] : [`--to ${to}: expected one of ${EXPORT_TARGETS.join(', ')}`]),
    ...(out === undefined ? ['--out is required'] : []),
  ];
  if (problems.length) {
    console.error(`${problems.join('\n')}\n${USAGE}`);
    return EXIT_USAGE;
  }
  try {
    const text = gateText(args.positionals[0]);
    const source = exportGate(text, to as (typeof EXPORT_TARGETS)[number], { labVersion: codeVersion(), adapters: ADAPTERS });
    writeTextFile(out!, source);
    console.error(`${args.positionals[0]} → ${out} (${to}; ${text.split('\n').length} rules)`);
    return 0;
  } catch (e) {
    if (e instanceof ExportRefused || e instanceof GateError) {
      console.error(e.message);
      return EXIT_ERROR;
    }
    throw e;
  }
}
