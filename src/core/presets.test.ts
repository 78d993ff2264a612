import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parsePreset } from './presets';

const dir = join(dirname(fileURLToPath(import.meta.url)), '../../public/presets');

describe('presets', () => {
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  it('cover lessons a–i', () => {
    for (const l of 'abcdefghi') expect(files.some((f) => f.startsWith(`${l}-`)), l).toBe(true);
  });
  it.each(files)('%s validates against the schema', (f) => {
    const p = parsePreset(f, JSON.parse(readFileSync(join(dir, f), 'utf8')));
    expect(p.title.length).toBeGreaterThan(5);
  });
  it('lessons a–k each open on the state they talk about, with one line of what to watch', () => {
    for (const l of 'abcdefghijk') {
      const f = files.find((x) => x.startsWith(`${l}-`));
      expect(f, l).toBeDefined();
      const p = parsePreset(f!, JSON.parse(readFileSync(join(dir, f!), 'utf8')));
      expect(p.state, f).toBeTruthy();
      expect(p.watch, f).toMatch(/^Press (Play \(space\)|Fork\b.*\bPlay \(space\))/); // a literal instruction: what to press, then Play
    }
  });
  it('takes an optional state of the task and a watch line', () => {
    const base = { title: 'x', explanation: 'y'.repeat(50), config: { task: 'assistant' } };
    expect(parsePreset('x', { ...base, state: 'code', watch: 'Press Play.' })).toMatchObject({ state: 'code', watch: 'Press Play.' });
    expect(() => parsePreset('x', { ...base, state: 'math' })).toThrow(/state must be one of assistant's states/);
    expect(() => parsePreset('x', { ...base, watch: ' ' })).toThrow(/watch/);
  });
  it('rejects a bad config naming the field', () => {
    expect(() => parsePreset('x', { title: 'x', explanation: 'y'.repeat(50), config: { clipHigh: -1 } })).toThrow(/config\.clipHigh/);
  });
});
