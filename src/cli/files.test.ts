// Issue 16 §5: every CLI reader handles a BOM alike and names the file it could not use; a full disk
// names the file; summaries keep NaN as "NaN" (JSON.stringify wrote null).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBundle } from '../core/experiment/bundle';
import { parseExperimentSpec } from '../core/experiment/spec';
import { appendTextFile, jsonText, parseFile, readJsonFile, readTextFile, writeTextFile } from './files';
import { readGateFile } from './gate-args';

const dir = mkdtempSync(join(tmpdir(), 'cli-files-'));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const spec = { version: 1, name: 's', variants: [{ name: 'a' }], seeds: [1], steps: 2 };

describe('CLI files', () => {
  it('a BOM is skipped by every reader (JSON, spec, gate rules, gate JSON, text)', () => {
    expect(readJsonFile(file('a.json', '\uFEFF{"x":1}'), 'x')).toEqual({ x: 1 });
    expect(parseFile(file('spec.json', '\uFEFF' + JSON.stringify(spec)), '--spec', readJsonFile, parseExperimentSpec).name).toBe('s');
    expect(readGateFile(file('g.txt', '\uFEFFtrue => drop'))).toBe('true => drop');
    expect(readGateFile(file('g.json', '\uFEFF{"rules":["true => drop"]}'))).toBe('true => drop');
    expect(readTextFile(file('t.jsonl', '\uFEFF{}\n'), 'cell log')).toBe('{}\n');
  });

  it('a bad spec or bundle names the file', () => {
    const bad = file('bad-spec.json', JSON.stringify({ ...spec, seeds: ['x'] }));
    expect(() => parseFile(bad, '--spec', readJsonFile, parseExperimentSpec)).toThrow(`--spec ${bad}: experiment spec: seeds[0]: expected a number`);
    const notJson = file('broken.json', '{"version":');
    expect(() => parseFile(notJson, '--spec', readJsonFile, parseExperimentSpec)).toThrow(new RegExp(`^--spec ${notJson.replace(/[.\\/]/g, '\\$&')}: not valid JSON`));
    const bundle = file('b.json', JSON.stringify({ schema: 'nope' }));
    expect(() => parseFile(bundle, 'file', readJsonFile, parseBundle)).toThrow(new RegExp(`^file ${bundle.replace(/[.\\/]/g, '\\$&')}: bundle: `));
    expect(() => readJsonFile(join(dir, 'missing.json'), '--spec')).toThrow(/--spec .*missing\.json: no such file/);
    expect(() => readJsonFile(dir, '--spec')).toThrow(/is a directory/);
    expect(() => readJsonFile(file('empty.json', ' \n'), '--spec')).toThrow(/the file is empty/);
  });

  it('a file that is not UTF-8 is refused naming the file and the byte offset (it was read as U+FFFD)', () => {
    const latin1 = join(dir, 'latin1.txt');
    writeFileSync(latin1, Buffer.concat([Buffer.from('true => drop # caf'), Buffer.from([0xe9]), Buffer.from('\n')]));
    const msg = `--gate ${latin1}: not UTF-8 text: byte offset 18 (0xe9) starts no UTF-8 character; save the file as UTF-8`;
    expect(() => readGateFile(latin1)).toThrow(msg);
    const gateJson = join(dir, 'bad.json');
    writeFileSync(gateJson, Buffer.concat([Buffer.from('\uFEFF{"rules":["true => drop # '), Buffer.from([0xc3, 0x28]), Buffer.from('"]}')]));
    expect(() => readGateFile(gateJson)).toThrow(`--gate ${gateJson}: not UTF-8 text: byte offset 29 (0xc3)`);
    expect(() => readJsonFile(gateJson, '--spec')).toThrow(`--spec ${gateJson}: not UTF-8 text: byte offset 29`);
    // a character cut at the end of the file, and valid text with a U+FFFD of its own
    const cut = join(dir, 'cut.txt');
    writeFileSync(cut, Buffer.from([0x61, 0xe2, 0x82]));
    expect(() => readTextFile(cut, 'cell log')).toThrow(`cell log ${cut}: not UTF-8 text: byte offset 1 (0xe2)`);
    expect(readTextFile(file('ok.txt', 'x\uFFFDé€😀'), 'x')).toBe('x\uFFFDé€😀');
  });

  it('JSON nested past the depth limit names the file and the limit (a stack overflow did)', () => {
    const deep = file('deep.json', `{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    expect(() => readJsonFile(deep, '--spec')).toThrow(`--spec ${deep}: the JSON nests objects or arrays more than 64 levels deep, the limit`);
    expect(readJsonFile(file('ok.json', `${'['.repeat(64)}${']'.repeat(64)}`), 'x')).toHaveLength(1);
  });

  it('--out /dev/full names the file', () => {
    expect(() => writeTextFile('/dev/full', 'x')).toThrow('--out /dev/full: cannot write (ENOSPC)');
    expect(() => appendTextFile('/dev/full', 'x', 'cell log')).toThrow('cell log /dev/full: cannot write (ENOSPC)');
  });

  it('summaries keep NaN and infinities (as bundles do), not null', () => {
    expect(jsonText({ a: NaN, b: Infinity, c: -Infinity, d: 1, e: null })).toBe('{"a":"NaN","b":"Infinity","c":"-Infinity","d":1,"e":null}');
  });
});
