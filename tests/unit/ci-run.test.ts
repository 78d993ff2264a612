// .ci/run runs the README's test command (`npm ci && npm test`) as its exact phases, each one timed
// (docs/testing.md): after `npm ci`, its phases are package.json's "test" script split at "&&", in
// order, so a step added to `npm test` and not to CI (or the other way round) fails here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

describe('.ci/run', () => {
  it('times the phases of the README\'s test command, and runs exactly those', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain('npm ci && npm test');
    const test = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { test: string } }).scripts.test;
    const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8');
    const phases = [...ci.matchAll(/^phase "[^"]+" (.+)$/gm)].map((m) => m[1].replace(/^npx /, '').replace(/ --no-audit --no-fund$/, ''));
    expect(phases).toEqual(['npm ci', ...test.split('&&').map((c) => c.trim())]);
  });
});
