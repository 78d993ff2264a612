// Issue 24 §5: a task spec past the link's 4,000-character cap is named, with what to do; the
// banner's fallback never reads "(using )" for a setting whose value is empty text.
import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS, defaultConfig, encodeQueryValue, fieldSpec, MAX_QUERY_LENGTH } from '../../core/config';
import { BUILTIN_SPECS } from '../../core/tasks/builtin';
import { specText } from '../../core/tasks/registry';
import { decodeUrl, describeErrors } from './url';

const assistant = specText(BUILTIN_SPECS.assistant); // 5,295 characters URL-encoded

describe('a task spec longer than a link carries', () => {
  it('is named, with what to do; the lab opens on the built-in task', () => {
    for (const q of [`?v=1&spec=${encodeQueryValue(assistant)}`, `?v=1&clipHigh=0.3&spec=${encodeQueryValue(assistant)}&seed=3`, `?spec=${encodeQueryValue(assistant)}`]) {
      expect(q.length).toBeGreaterThan(MAX_QUERY_LENGTH);
      const { state, errors } = decodeUrl(q, new Map());
      expect(state.config.taskSpec).toBe('');
      const lines = describeErrors(errors, state.config);
      const line = lines.find((l) => l.startsWith('taskSpec: '));
      expect(line).toMatch(/^taskSpec: the task spec in the link \(spec=…, \d+ characters\) lies past the first 4000 characters and was not read: paste the spec into the task editor and Train it .*--task-file \(using the built-in task strategies\)$/);
      expect(lines.join('\n')).not.toContain('(using )');
    }
    // a spec that fits is read, and a cut elsewhere says nothing of a spec
    const short = decodeUrl(`?spec=${encodeQueryValue(specText(BUILTIN_SPECS.strategies))}&views=${'x,'.repeat(200)}`, new Map());
    expect(short.state.config.taskSpec).toBe(specText(BUILTIN_SPECS.strategies));
    expect(short.errors.map((e) => e.field)).not.toContain('taskSpec');
  });

  it('a bad value of a text setting falls back to what its empty value means, never "(using )"', () => {
    const texts = CONFIG_KEYS.filter((k) => fieldSpec(k).type === 'text');
    expect(texts.length).toBeGreaterThan(0);
    for (const k of texts) {
      const lines = describeErrors([{ field: k, message: 'bad' }], defaultConfig());
      expect(lines[0]).not.toContain('(using )');
      expect(lines[0]).toMatch(/\(using \S.*\)$/);
    }
  });
});
