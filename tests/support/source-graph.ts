// The repository's production source as a graph, read from the text: which files (src/ and workers/,
// no *.test.ts) import which (every form: `import type`, re-exports, `import()`), how long each file
// and each function is, and the import cycles. tests/unit/layers.test.ts checks the layering, the
// cycles and the line budgets on it; `npx tsx tests/support/source-graph.ts` prints the counts.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function walk(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(join(ROOT, p)).isDirectory()) return walk(p);
    return /\.(ts|svelte)$/.test(f) && !f.endsWith('.test.ts') && !f.endsWith('.d.ts') ? [p] : [];
  });
}

/** Production source files (repository paths). */
export const sourceFiles = (): string[] => [...walk('src'), ...walk('workers')].sort();

/** The script of a Svelte component (its first `<script>` block) with the line it starts at, or a .ts file whole. */
export function scriptOf(file: string, text: string): { code: string; firstLine: number } {
  if (!file.endsWith('.svelte')) return { code: text, firstLine: 0 };
  const m = /<script[^>]*>([\s\S]*?)<\/script>/.exec(text);
  return m ? { code: m[1], firstLine: text.slice(0, m.index).split('\n').length - 1 } : { code: '', firstLine: 0 };
}

/** The source file a relative specifier names (`./x` → x.ts, x/index.ts, x.svelte.ts), or null (a package, JSON). */
export function resolveImport(from: string, spec: string, files: ReadonlySet<string>): string | null {
  if (!spec.startsWith('.')) return null;
  const base = normalize(join(dirname(from), spec));
  return [base, `${base}.ts`, join(base, 'index.ts')].find((c) => files.has(c)) ?? null;
}

export interface SourceFile {
  path: string;
  lines: number;
  /** Source files it imports (resolved; packages and JSON left out). */
  imports: string[];
  /** Functions (declarations, methods, arrows, accessors), each with its first line and length in lines. */
  functions: { name: string; line: number; lines: number }[];
}

function functionsOf(file: string, code: string, firstLine: number): SourceFile['functions'] {
  const sf = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true);
  const out: SourceFile['functions'] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      const parent = node.parent;
      const named = node.name ?? (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent) ? parent.name : undefined);
      out.push({ name: named ? named.getText(sf) : '(anonymous)', line: start + 1 + firstLine, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

export function readSources(): SourceFile[] {
  const paths = sourceFiles();
  const set = new Set(paths);
  return paths.map((path) => {
    const text = readFileSync(join(ROOT, path), 'utf8');
    const { code, firstLine } = scriptOf(path, text);
    const specs = ts.preProcessFile(code, true, true).importedFiles.map((f) => f.fileName);
    const imports = [...new Set(specs.map((s) => resolveImport(path, s, set)).filter((p): p is string => p !== null))];
    return { path, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0), imports, functions: functionsOf(path, code, firstLine) };
  });
}

/** The import cycles: strongly connected groups of more than one file (or a file importing itself), each sorted. */
export function importCycles(files: readonly Pick<SourceFile, 'path' | 'imports'>[]): string[][] {
  const edges = new Map(files.map((f) => [f.path, f.imports]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const connect = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1 || (edges.get(v) ?? []).includes(v)) cycles.push(group.sort());
  };
  for (const v of edges.keys()) if (!index.has(v)) connect(v);
  return cycles.sort((a, b) => a[0].localeCompare(b[0]));
}

/**
 * The layer of a source file and its rank: a file may import its own layer, the core, and layers of
 * a lower rank (src/core/README.md, "Imports go one way").
 */
export function layerOf(path: string): { layer: string; rank: number } {
  const layers: [RegExp, string, number][] = [
    [/^src\/core\//, 'src/core', 0],
    [/^src\/graph\//, 'src/graph', 1],
    [/^src\/model\//, 'src/model', 2],
    [/^src\/engine\//, 'src/engine', 3],
    [/^src\/io\//, 'src/io', 3],
    [/^workers\//, 'workers', 4],
    [/^src\/cli\//, 'src/cli', 4],
    [/^src\/ui\//, 'src/ui', 5],
    [/^src\/bench\//, 'src/bench', 5],
    [/^src\/main\.ts$/, 'src/main.ts', 6],
  ];
  const hit = layers.find(([re]) => re.test(path));
  if (!hit) throw new Error(`${path} is in no layer: add its folder to layerOf`);
  return { layer: hit[1], rank: hit[2] };
}

/** "a → b" for every import that goes against the layering. */
export function layeringBreaks(files: readonly Pick<SourceFile, 'path' | 'imports'>[]): string[] {
  return files.flatMap((f) => {
    const from = layerOf(f.path);
    return f.imports
      .filter((to) => {
        const t = layerOf(to);
        return t.layer !== from.layer && (from.rank === 0 || (t.rank !== 0 && t.rank >= from.rank));
      })
      .map((to) => `${f.path} → ${to}`);
  });
}

/** "path: N lines" for each file over `fileLines`, "path:line name: N lines" for each function over `functionLines`. */
export function overBudget(files: readonly SourceFile[], budget: { fileLines: number; functionLines: number }): string[] {
  return files.flatMap((f) => [
    ...(f.lines > budget.fileLines ? [`${f.path}: ${f.lines} lines`] : []),
    ...f.functions.filter((g) => g.lines > budget.functionLines).map((g) => `${f.path}:${g.line} ${g.name}: ${g.lines} lines`),
  ]);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const files = readSources();
  const fns = files.flatMap((f) => f.functions.filter((g) => g.lines > 80).map((g) => `${f.path}:${g.line} ${g.name} (${g.lines} lines)`));
  const long = files.filter((f) => f.lines > 400).map((f) => `${f.path} (${f.lines} lines)`);
  const cycles = importCycles(files);
  console.log(`${files.length} files, ${files.reduce((s, f) => s + f.lines, 0)} lines, ${fns.length} functions over 80 lines, ${long.length} files over 400 lines, ${cycles.length} import cycles`);
  for (const x of [...fns, ...long, ...cycles.map((c) => `cycle: ${c.join(' ')}`), ...layeringBreaks(files)]) console.log(`  ${x}`);
}
