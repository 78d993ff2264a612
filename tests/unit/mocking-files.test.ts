// The unit project shares one module graph across the files a test process runs (vitest.config.ts,
// `isolate: false`), so a file that replaces a module with vi.mock would replace it for the files
// after it, or find it loaded already. Such files run in the "unit-mocking" project, isolated: the
// config's MOCKING_FILES must list exactly the test files that mock a module.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

const testFiles = (dir: string) => readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.test.ts')).map((f) => join(dir, f));

describe('vitest.config.ts MOCKING_FILES', () => {
  it('lists exactly the unit test files that call vi.mock or vi.doMock', () => {
    const config = readFileSync(join(ROOT, 'vitest.config.ts'), 'utf8');
    const listed = /const MOCKING_FILES = \[([^\]]*)\]/.exec(config)?.[1].match(/'[^']+'/g)?.map((s) => s.slice(1, -1));
    const mocking = ['src', 'workers', 'tests/unit']
      .flatMap(testFiles)
      .filter((f) => /\bvi\.(do)?[mM]ock\(/.test(readFileSync(join(ROOT, f), 'utf8').replace(/^\s*\/\/.*$/gm, '')))
      .sort();
    expect(mocking.length).toBeGreaterThan(0);
    expect(listed?.sort()).toEqual(mocking);
  });
});
