// Runs a trainer adapter under python3 (standard library only) against stand-ins of the trainer's
// objects (tests/fixtures/trainers/): the module is exactly what `npm run export-gate -- --to
// TARGET` writes (the gate's exported module, then the adapter); the driver imports it as
// gate_module, prints one JSON value, which is returned.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportGate, type ExportTarget } from '../../src/core/gates/export/targets';
import { ADAPTERS } from '../../src/core/gates/export/adapters/index';
import type { Adapter } from '../../src/core/gates/export/adapters/types';
import { scaled } from './speed';

export const TRAINER_FIXTURES = join(__dirname, '..', 'fixtures', 'trainers');

/** The exported module of `gate` for `adapter`'s target, with `adapter` (default: the shipped one) appended. */
export function exported(gate: string, target: ExportTarget, adapter?: Adapter): string {
  const adapters = adapter ? { ...ADAPTERS, [target]: adapter } : ADAPTERS;
  return exportGate(gate, target, { labVersion: 'test', adapters });
}

/** Write `module` as gate_module.py, run `driver` (it may import it and the stand-ins), parse its stdout. */
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
