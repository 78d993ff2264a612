/**
 * Text the page shows names no source file (a learner cannot open one): the lessons, the shipped
 * experiments' and tasks' descriptions, every setting's tooltip and the Svelte markup (script, style
 * and comments taken out). Say it in words; link docs/ where more is wanted.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS, fieldSpec } from '../../src/core/config';

const root = join(import.meta.dirname, '../..');
/** A source file or folder: src/…, tests/…, or a TypeScript file name. */
export const SOURCE_NAME = /\bsrc\/|\btests\/|\bworkers\/|\b[\w.-]+\.(ts|svelte)\b/;

/** Every string in a JSON value, with where it is. */
function strings(x: unknown, at: string): [string, string][] {
  if (typeof x === 'string') {
    // an embedded JSON document (a preset's task spec) is text the page shows too
    if (x.trimStart().startsWith('{')) {
      try {
        return [[at, x], ...strings(JSON.parse(x), at)];
      } catch {
        return [[at, x]];
      }
    }
    return [[at, x]];
  }
  if (Array.isArray(x)) return x.flatMap((v, i) => strings(v, `${at}[${i}]`));
  if (x && typeof x === 'object') return Object.entries(x).flatMap(([k, v]) => strings(v, `${at}.${k}`));
  return [];
}

const jsonIn = (dir: string) => readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json')).map((f) => join(dir, f));

/** Svelte markup as the page renders it: without its script, style and comments. */
export function markupOf(svelte: string): string {
  return svelte.replace(/<script[\s\S]*?<\/script>/g, '').replace(/<style[\s\S]*?<\/style>/g, '').replace(/<!--[\s\S]*?-->/g, '');
}

function svelteFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.svelte')).map((f) => join(dir, f));
}

describe('page text names no source file', () => {
  it('the pattern finds the names this test is for, and not docs links or commands', () => {
    for (const bad of ['see src/core/onset.ts', 'rule: divergence.ts', 'checked in tests/unit/x', 'App.svelte']) expect(bad).toMatch(SOURCE_NAME);
    for (const fine of ['docs/tasks.md', 'npm run import -- --fit-task', 'esr/yield', 'public/experiments/b.json', 'gap/clipfrac_high']) expect(fine).not.toMatch(SOURCE_NAME);
  });

  it('in the lessons, their measurements, the shipped experiments and tasks', () => {
    const found = ['public/presets', 'public/experiments', 'public/tasks'].flatMap(jsonIn).flatMap((file) =>
      strings(JSON.parse(readFileSync(join(root, file), 'utf8')), file).filter(([, s]) => SOURCE_NAME.test(s)).map(([at, s]) => `${at}: …${s.match(SOURCE_NAME)![0]}…`),
    );
    expect(found).toEqual([]);
  });

  it("in every setting's tooltip", () => {
    const found = CONFIG_KEYS.filter((k) => SOURCE_NAME.test(fieldSpec(k).doc)).map((k) => `${k}: ${fieldSpec(k).doc}`);
    expect(found).toEqual([]);
  });

  it('in the Svelte markup', () => {
    const found = svelteFiles('src/ui').flatMap((file) =>
      markupOf(readFileSync(join(root, file), 'utf8'))
        .split('\n')
        .filter((line) => SOURCE_NAME.test(line))
        .map((line) => `${file}: ${line.trim()}`),
    );
    expect(found).toEqual([]);
  });

  it("in the Svelte markup's comments (the page's markup a reader sees; notes for developers go in the script)", () => {
    const found = svelteFiles('src/ui').flatMap((file) =>
      [...readFileSync(join(root, file), 'utf8').replace(/<script[\s\S]*?<\/script>/g, '').matchAll(/<!--([\s\S]*?)-->/g)].filter((m) => SOURCE_NAME.test(m[1])).map((m) => `${file}: …${m[1].match(SOURCE_NAME)![0]}…`),
    );
    expect(found).toEqual([]);
  });
});
