/**
 * Every `npm run …` command (hyphenated script names included) printed in README.md and docs/*.md runs as printed, so they cannot
 * drift from the CLIs: each is parsed by its own CLI (its flags, with `--help` added: an unknown or
 * misspelt flag, or a flag without its value, exits 2), and each file it reads exists in the
 * repository (or is written by a command printed before it on the same page). A command with a
 * placeholder (`…`, `RUN_DIR`, `exp.json`: the reader's own run or spec) is checked for its flags
 * only. The README's import row, cheap to run, is run for real.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const SCRIPTS = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
/** Scripts that are the CLIs (`tsx FILE`): the others (start, build, test, check) take no arguments of ours. */
const CLI = Object.fromEntries(Object.entries(SCRIPTS).filter(([, s]) => /^tsx \S+$/.test(s)).map(([k, s]) => [k, s.slice(4)]));

export interface DocCommand {
  file: string;
  line: number;
  script: string;
  args: string[];
  text: string;
}

/** Flags whose value is a file the command reads. */
const INPUT_FLAGS = new Set(['--spec', '--states', '--behaviors', '--task-file', '--gate', '--base', '--samples', '--rules']);
/** Flags whose value is a file or folder the command writes. */
const OUTPUT_FLAGS = new Set(['--out', '--out-dir', '--simulate-out', '--fit-task', '--samples-out', '--rules-out']);
/** Files and folders the reader brings (their own spec, gate, run), named as such on their page. */
const READERS_OWN = /^(exp\.json|spec\.json|my-gate\.json|my-gate\.txt|states\.json|behaviors\.json|collapse|~\/.*|\/out\/.*|path\/to\/.*)$/;
/** A placeholder: an ellipsis, a word in capitals (RUN_DIR, N, I, FILE), or an optional part in brackets. */
const PLACEHOLDER = /…|\.\.\.|^[A-Z][A-Z_]*$|^\[|\]$|^-h$/;

/** A command line's words as a POSIX shell splits them (single and double quotes, no expansions). */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) {
    if (m[3]?.startsWith('#')) break; // a comment to the end of the line
    words.push(m[1] ?? m[2] ?? m[3]);
  }
  return words;
}

/** The words to parse: placeholders out, and a flag whose value was a placeholder with them; optional parts' brackets off. */
function parseable(args: readonly string[]): string[] {
  const out: string[] = [];
  for (const a of args.map((x) => x.replace(/^\[|\]$/g, ''))) {
    if (!a) continue;
    if (PLACEHOLDER.test(a)) {
      if (out.at(-1)?.startsWith('--')) out.pop();
      continue;
    }
    out.push(a);
  }
  return out;
}

/** `npm run X -- args` written in the docs: code blocks (fenced or indented, `\` continued) and inline code (table rows). */
export function docCommands(file: string, text: string): DocCommand[] {
  const out: DocCommand[] = [];
  const lines = text.split('\n');
  let fenced = false;
  const add = (line: number, raw: string) => {
    const cmd = raw.trim();
    const m = /^npm run ([a-z][a-z-]*)(?:\s+--\s+(.*))?$/.exec(cmd);
    if (!m || !CLI[m[1]]) return;
    out.push({ file, line, script: m[1], args: shellWords(m[2] ?? ''), text: cmd });
  };
  for (let i = 0; i < lines.length; i++) {
    if (/^\s*```/.test(lines[i])) {
      fenced = !fenced;
      continue;
    }
    const code = fenced || /^ {4}/.test(lines[i]);
    if (code && /^\s*npm run /.test(lines[i])) {
      let cmd = lines[i];
      const at = i;
      while (/\\\s*$/.test(cmd) && i + 1 < lines.length) cmd = cmd.replace(/\\\s*$/, ' ') + lines[++i].trim();
      add(at + 1, cmd);
    } else if (!code) {
      for (const m of lines[i].matchAll(/`(npm run [a-z][a-z-]* -- [^`]+)`/g)) add(i + 1, m[1]);
    }
  }
  return out;
}

const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const COMMANDS = DOCS.flatMap((f) => docCommands(f, readFileSync(join(ROOT, f), 'utf8')));

/** What is wrong with the files a command reads (empty: nothing), given the outputs of commands printed before it on its page. */
function missingInputs(c: DocCommand, written: Set<string>): string[] {
  const missing: string[] = [];
  const sub = ['merge', 'report', 'reproduce'].includes(c.args[0] ?? '') ? 1 : 0;
  for (let i = sub; i < c.args.length; i++) {
    const a = c.args[i];
    if (OUTPUT_FLAGS.has(a)) {
      written.add(c.args[++i] ?? '');
      continue;
    }
    const input = INPUT_FLAGS.has(c.args[i - 1] ?? '') || (!a.startsWith('-') && (i === 0 || !c.args[i - 1].startsWith('--') || INPUT_FLAGS.has(c.args[i - 1])) && /[/.]/.test(a));
    if (!input || a.startsWith('-') || PLACEHOLDER.test(a) || READERS_OWN.test(a) || written.has(a) || [...written].some((w) => a.startsWith(`${w}/`))) continue;
    if (!existsSync(join(ROOT, a))) missing.push(a);
  }
  return missing;
}

/** Flags that take no value ('') or whose value must look like something (for the parse of all of a CLI's flags at once). */
const VALUE_OF: Record<string, string> = { '--engine': 'tabular', '--backend': 'wasm', '--gpu': 'real', '--only': 'jobs', '--format': 'verl', '--preset': 'a-support-collapse', '--all': '', '--list': '', '--json': '', '--ensemble': '', '--trace': '', '--base': 'base.f32', '--quick': '', '--costs-only': '', '--no-profile': '', '--browser': '', '--import': '', '--follow': '', '--discover': '' };

/** Run `npm run <script> -- args` as node would (tsx), in the repository; exit code and output. */
function run(script: string, args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['--import', 'tsx', join(ROOT, CLI[script]), ...args], { cwd: ROOT });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (out += d));
    p.on('close', (code) => resolve({ code, out }));
  });
}

describe('the commands in README.md and docs/', () => {
  it('are found: the CLIs README lists appear, README names each of its rows', () => {
    for (const s of ['lab', 'experiment', 'import', 'watch', 'bench', 'pretrain', 'export-gate', 'propose-rule']) expect(COMMANDS.map((c) => c.script)).toContain(s);
    expect(COMMANDS.filter((c) => c.file === 'README.md').map((c) => c.script).sort()).toEqual(['experiment', 'export-gate', 'import', 'lab', 'watch']);
  });

  it('read files that exist (or that a command before them on the page writes)', () => {
    const problems: string[] = [];
    for (const file of DOCS) {
      const written = new Set<string>();
      for (const c of COMMANDS.filter((x) => x.file === file)) for (const m of missingInputs(c, written)) problems.push(`${c.file}:${c.line} ${c.text}: no ${m}`);
    }
    expect(problems).toEqual([]);
  });

  it('use only flags their CLI knows: each in its --help, and the CLI parses the lot', async () => {
    // one Node process per CLI (each loads its whole module graph): every flag its docs use, with
    // --help, which the CLI prints once its parser took them all; its --help alone only when not
    const bad: string[] = [];
    for (const script of Object.keys(CLI)) {
      const docs = COMMANDS.filter((x) => x.script === script).flatMap((c) => parseable(c.args).flatMap((a) => {
        const flag = /^--[a-z][a-z0-9-]*/.exec(a)?.[0];
        return flag ? [{ c, flag }] : [];
      }));
      const used = new Set(docs.map((d) => d.flag));
      // the CLI's own parser takes every flag the docs use (a flag only in the usage text would pass below)
      const parsed = await run(script, [...[...used].flatMap((f) => [f, VALUE_OF[f] ?? '1']).filter((x) => x !== ''), '--help']);
      if (parsed.code !== 0) bad.push(`npm run ${script} refuses the flags its docs use: ${parsed.out.split('\n')[0]}`);
      const usage = parsed.code === 0 ? parsed : await run(script, ['--help']);
      expect(usage.code, `${script} --help: ${usage.out}`).toBe(0);
      const known = new Set(usage.out.match(/--[a-z][a-z0-9-]*/g));
      for (const { c, flag } of docs) if (!known.has(flag)) bad.push(`${c.file}:${c.line} ${c.text}: ${flag} is not in npm run ${script} -- --help`);
    }
    expect(bad).toEqual([]);
  }, 300_000);

  it('README\'s import row runs as printed and writes its frames', async () => {
    const row = COMMANDS.find((c) => c.file === 'README.md' && c.script === 'import')!;
    const dir = mkdtempSync(join(tmpdir(), 'invlab-readme-'));
    try {
      // as printed, in the repository; only the output lands in a scratch folder
      const r = await run('import', row.args.map((a, i) => (OUTPUT_FLAGS.has(row.args[i - 1] ?? '') ? join(dir, a) : a)));
      expect(r.code, r.out).toBe(0);
      const outFlag = row.args.indexOf('--out');
      expect(outFlag).toBeGreaterThan(0);
      expect(readFileSync(join(dir, row.args[outFlag + 1]), 'utf8').trim().split('\n').length).toBeGreaterThanOrEqual(20);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
