// From a discovered behavior to a rule, on the command line: read the per-sample lines an import or
// a watch wrote (--samples-out), read the behavior's samples and the others' back from the run's
// files, propose a rule that tells the behavior apart (src/core/import/discover/propose.ts), say how
// many of its samples and of the others it matches, and write it into a --behaviors rule file.
//   npm run propose-rule -- --samples samples.jsonl RUN_DIR --behavior BEHAVIOR --name NAME
//     --rules-out behaviors.json [--rules behaviors.json] [--format verl] [--max-own 400] [--max-others 1600]
// RUN_DIR is the folder (or files) given to the import. --rules: the rule file to add the rule to
// (default: --rules-out when it exists; else a new file whose other behaviors are discovered).
// Exit 0 done, 1 a bad file or nothing to propose, 2 bad arguments. Docs: docs/import.md.
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { errorText } from '../core/unknown';
import { FORMATS, elsewhereText, proposalText, proposeRule, withBehaviorRule, type FormatId } from '../core/import/index';
import { SampleTextReader, type OpenRunFile, type SampleText } from '../core/import/browse/index';
import { KIND_FORMAT, detectKind, isParquet } from '../core/import/formats/detect';
import { openParquet } from '../io/hyparquet';
import { nodeRegexEngine } from '../io/regex/node';
import { parseCommandLine, wholeNumber } from './args';
import { writeTextFile } from './files';
import { samplesRoot } from './samples-out';

const USAGE = `usage: npm run propose-rule -- --samples samples.jsonl RUN_DIR --behavior BEHAVIOR --name NAME --rules-out behaviors.json [--rules behaviors.json] [--format ${FORMATS.join('|')}] [--max-own 400] [--max-others 1600]`;

const OPTIONS = {
  samples: { type: 'string' },
  behavior: { type: 'string' },
  name: { type: 'string' },
  'rules-out': { type: 'string' },
  rules: { type: 'string' },
  format: { type: 'string' },
  'max-own': { type: 'string', default: '400' },
  'max-others': { type: 'string', default: '1600' },
} as const;

interface Place {
  file: string;
  index: number;
  /** The behavior the import gave the sample. */
  behavior: string;
}

/** The lines of the samples file, each checked; `visit` sees each one's place and whether it is the behavior's. */
async function eachLine(path: string, behavior: string, visit: (p: Place, own: boolean) => void): Promise<void> {
  let n = 0;
  for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
    n++;
    if (!line.trim()) continue;
    let r: { file?: unknown; index?: unknown; behavior?: unknown };
    try {
      r = JSON.parse(line);
    } catch (e) {
      throw new Error(`${path}:${n}: not JSON (${errorText(e)})`);
    }
    if (typeof r?.file !== 'string' || !Number.isInteger(r.index) || typeof r.behavior !== 'string') throw new Error(`${path}:${n}: not a per-sample line (expected file, index and behavior, as --samples-out writes)`);
    visit({ file: r.file, index: r.index as number, behavior: r.behavior as string }, r.behavior === behavior);
  }
}

/** At most `max` of `n` places, evenly spread: the k-th kept is at ⌊k·n/max⌋. */
const spread = (n: number, max: number) => {
  const keep = new Set<number>();
  const step = Math.max(1, n / Math.max(1, max));
  for (let k = 0; k < n && keep.size < max; k += step) keep.add(Math.floor(k));
  return keep;
};

/** The run's files by the names the samples file gives them (relative to the folder given). */
function runFiles(root: string): OpenRunFile {
  return async (name) => {
    const path = root ? join(root, name) : name;
    if (!existsSync(path)) throw new Error(`${path}: not found (is RUN_DIR the folder given to the import?)`);
    const size = statSync(path).size;
    return {
      size,
      async slice(a, b) {
        const fh = await open(path, 'r');
        try {
          const buf = Buffer.alloc(Math.max(0, Math.min(b, size) - a));
          await fh.read(buf, 0, buf.length, a);
          return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
        } finally {
          await fh.close();
        }
      },
    };
  };
}

/** The format of the run's file `name`: a parquet file is TRL's, else its first line says. */
async function formatOf(openFile: OpenRunFile, name: string): Promise<FormatId> {
  const f = await openFile(name);
  const head = new Uint8Array(await f.slice(0, Math.min(f.size, 1 << 16)));
  if (isParquet(name, head)) return 'trl';
  const first = new TextDecoder().decode(head).split('\n')[0];
  let kind = null;
  try {
    kind = detectKind(JSON.parse(first));
  } catch {
    kind = null;
  }
  if (!kind) throw new Error(`${name}: its format is not recognised from its first line; name it with --format ${FORMATS.join('|')}`);
  return KIND_FORMAT[kind];
}

async function main(): Promise<number> {
  const args = parseCommandLine(OPTIONS, USAGE);
  if ('exit' in args) return args.exit;
  const v = args.values;
  const bad: string[] = [];
  for (const k of ['samples', 'behavior', 'name', 'rules-out'] as const) if (!v[k]) bad.push(`--${k} is required`);
  if (!args.positionals.length) bad.push('RUN_DIR: the folder (or files) given to the import is required');
  if (v.format && !FORMATS.includes(v.format as FormatId)) bad.push(`--format: expected one of ${FORMATS.join(', ')}, got ${v.format}`);
  let maxOwn = 0;
  let maxOthers = 0;
  try {
    maxOwn = wholeNumber('--max-own', v['max-own'], 1, 100_000)!;
    maxOthers = wholeNumber('--max-others', v['max-others'], 0, 100_000)!;
  } catch (e) {
    bad.push(errorText(e));
  }
  if (bad.length) {
    console.error(`${bad.join('\n')}\n${USAGE}`);
    return 2;
  }
  const behavior = v.behavior!;
  let own = 0;
  let others = 0;
  let firstFile: string | null = null;
  await eachLine(v.samples!, behavior, (p, mine) => ((firstFile ??= p.file), mine ? own++ : others++));
  if (!own) throw new Error(`${v.samples}: no sample of the behavior ${JSON.stringify(behavior)} (${others} samples of other behaviors)`);
  const keepOwn = spread(own, maxOwn);
  const keepOthers = spread(others, maxOthers);
  const places: { own: Place[]; others: Place[] } = { own: [], others: [] };
  let i = 0;
  let j = 0;
  await eachLine(v.samples!, behavior, (p, mine) => void (mine ? keepOwn.has(i++) && places.own.push(p) : keepOthers.has(j++) && places.others.push(p)));
  const files = runFiles(samplesRoot(args.positionals));
  const reader = new SampleTextReader((v.format as FormatId | undefined) ?? (await formatOf(files, firstFile!)), files, openParquet);
  const read = async (ps: Place[]): Promise<(SampleText & { measuredAs: string })[]> => {
    const out: (SampleText & { measuredAs: string })[] = [];
    for (const p of ps) out.push({ ...(await reader.read(p.file, p.index)), measuredAs: p.behavior });
    return out;
  };
  const p = await proposeRule(await read(places.own), await read(places.others), { name: v.name!, totals: { own, others }, regex: nodeRegexEngine() });
  const target = v.rules ?? (existsSync(v['rules-out']!) ? v['rules-out']! : null);
  const written = withBehaviorRule(target ? readFileSync(target, 'utf8') : null, p.rule);
  writeTextFile(v['rules-out']!, written.text, '--rules-out');
  console.log(`${v.name}: ${p.rule.responseRegex}`);
  console.log(`${proposalText(p)} (read back from the run, evenly spread: ${p.total} of its ${own} samples, ${p.othersTotal} of the ${others} others); precision ${p.precision.toFixed(3)}, recall ${p.recall.toFixed(3)}`);
  console.log(`looks for: ${p.looksFor.map((c) => c.join(' or ')).join(', then ')}`);
  if (p.elsewhere.length) console.log(`${elsewhereText(p.elsewhere)}`);
  for (const w of p.warnings) console.log(`warning: ${w}`);
  console.log(`${written.replaced ? `replaced the rule${written.replaced === 1 ? '' : 's'} of ${v.name}` : 'added the rule'} in ${v['rules-out']}${target && target !== v['rules-out'] ? ` (from ${target})` : ''}: use it with --behaviors ${v['rules-out']}`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(errorText(e));
    process.exit(1);
  },
);
