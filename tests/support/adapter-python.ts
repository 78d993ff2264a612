// Runs a trainer adapter under python3 (standard library only) against stand-ins of the trainer's
// objects (tests/fixtures/trainers/): the module is the gate's decide() — the exported module or,
// until a test switches, the hand-written fixture — followed by the adapter's Python; the driver
// prints one JSON value, which is returned.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scaled } from './speed';

export const TRAINER_FIXTURES = join(__dirname, '..', 'fixtures', 'trainers');
export const fixtureDecide = (rules: string): string =>
  readFileSync(join(TRAINER_FIXTURES, 'fixture_decide.py'), 'utf8') + `\nRULES = ${rules}\n`;

/** Write `module` as gate_module.py beside the stand-ins, run `driver` (it may import both), parse its stdout. */
export function runAdapter(module: string, driver: string, input: unknown): unknown {
  const dir = mkdtempSync(join(tmpdir(), 'invlab-adapter-'));
  try {
    writeFileSync(join(dir, 'gate_module.py'), module);
    writeFileSync(join(dir, 'driver.py'), driver);
    const out = execFileSync('python3', [join(dir, 'driver.py')], {
      input: JSON.stringify(input),
      env: { ...process.env, PYTHONPATH: `${dir}:${TRAINER_FIXTURES}`, PYTHONDONTWRITEBYTECODE: '1' },
      timeout: scaled(20_000),
      encoding: 'utf8',
    });
    return JSON.parse(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
