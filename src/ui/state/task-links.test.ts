import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { makeConfig } from '../../core/config';
import { specText } from '../../core/tasks/registry';
import type { TaskSpec } from '../../core/tasks/spec';
import { BUILTIN_SPECS } from '../../core/tasks/builtin';
import { browserSpecLinks, STORED_PREFIX, type SpecLinks } from './task-links';
import { decodeUrl, defaultUrlState, encodeUrl } from './url';

const triage = specText(JSON.parse(readFileSync(new URL('../../../public/tasks/triage.json', import.meta.url), 'utf8')) as TaskSpec);
const long = specText({ ...BUILTIN_SPECS.assistant, name: 'my assistant' });

function memoryLinks(): SpecLinks & { size: () => number } {
  const m = new Map<string, string>();
  const storage = { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) } as Storage;
  return { ...browserSpecLinks(storage), size: () => m.size };
}

describe('a custom task in the link', () => {
  it('a short spec rides in the link and comes back whole', () => {
    const links = memoryLinks();
    const s = { ...defaultUrlState(), config: makeConfig({ taskSpec: triage }), viewState: 'feature' };
    const q = encodeUrl(s, new Map(), links);
    expect(q).toContain('spec=');
    expect(q.length).toBeLessThan(4000);
    expect(links.size()).toBe(0);
    const back = decodeUrl(q, new Map(), links);
    expect(back.errors).toEqual([]);
    expect(back.state.config.taskSpec).toBe(triage);
    expect(back.state.viewState).toBe('feature');
  });
  it('a long spec is stored and named; the link says so; elsewhere it is reported missing', () => {
    const links = memoryLinks();
    const q = encodeUrl({ ...defaultUrlState(), config: makeConfig({ taskSpec: long }) }, new Map(), links);
    const value = new URLSearchParams(q).get('spec')!;
    expect(value).toMatch(new RegExp(`^${STORED_PREFIX}my-assistant\\.[0-9a-f]{8}$`));
    expect(decodeUrl(q, new Map(), links).state.config.taskSpec).toBe(long);
    const elsewhere = decodeUrl(q, new Map(), memoryLinks());
    expect(elsewhere.state.config.taskSpec).toBe('');
    expect(elsewhere.errors[0]).toMatchObject({ field: 'taskSpec', message: expect.stringMatching(/stored in another browser/) });
  });
  it('a bad spec in a link is reported at its field and the task stays built-in', () => {
    const bad = triage.replace('"gold":"patch"', '"gold":"nobody"');
    const r = decodeUrl(`v=1&spec=${encodeURIComponent(bad)}&lr=0.01`, new Map());
    expect(r.state.config.taskSpec).toBe('');
    expect(r.state.config.lr).toBe(0.01);
    expect(r.errors[0].field).toBe('taskSpec');
    expect(r.errors[0].message).toMatch(/states\[0\]\.gold/);
  });
});
