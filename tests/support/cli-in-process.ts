// A CLI's work run in the test's own process (its *-main.ts function) instead of a Node process of its
// own: a `node --import tsx` process costs 0.5 s of CPU before the CLI's first line and about as much
// again to load its modules (docs/testing.md). What the process would print on stdout and stderr is
// collected (console and direct writes), and the exit code is the one the command's entry file ends
// with. Calls must not overlap (the console is shared); tests that are about the process (its exit
// code as the shell sees it, signals) keep running the command.
import { format } from 'node:util';
import { vi } from 'vitest';
import { errorText } from '../../src/core/unknown';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Run `main(argv)` as the command would: its resolved number (or 0 / process.exitCode when it
 * returns nothing) is the exit code; a thrown error prints its message on stderr and ends with
 * `exitCodeOf(error)`.
 */
export async function runInProcess(main: (argv: readonly string[]) => Promise<number | void>, argv: readonly string[], exitCodeOf: (e: unknown) => number): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const line = (args: unknown[]) => `${format(...args)}\n`;
  const spies = [
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true)),
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true)),
    vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void (stdout += line(a))),
    vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void (stderr += line(a))),
    vi.spyOn(console, 'warn').mockImplementation((...a: unknown[]) => void (stderr += line(a))),
  ];
  const exitCode = process.exitCode;
  process.exitCode = undefined;
  try {
    const r = await main(argv);
    return { code: typeof r === 'number' ? r : Number(process.exitCode ?? 0), stdout, stderr };
  } catch (e) {
    return { code: exitCodeOf(e), stdout, stderr: `${stderr}${errorText(e)}\n` };
  } finally {
    process.exitCode = exitCode;
    for (const s of spies) s.mockRestore();
  }
}
