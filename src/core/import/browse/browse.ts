// The rollout viewer's query over one run: the index's filters (step, state, behavior, rule,
// decision), a text search over prompt and response, and paging; only the page's samples are read
// back from the files (sample-text.ts). A search reads the filtered samples' text once and keeps the
// positions that match, so paging through its results reads only each page again.
import { ruleName, type Gate } from '../../gates/index';
import { emptySample } from '../formats/common';
import type { ImportedSample } from '../types';
import { SampleIndex, decisionText, type SampleEntry, type SampleFacets, type SampleFilter } from './sample-index';
import type { SampleText } from './sample-text';
import { errorText } from '../../unknown';
import type { LabelTitles } from '../titles/titles';

export interface SampleQuery extends SampleFilter {
  /** Words searched in the prompt and the response (case-insensitive, all of them); '' = none. */
  text?: string;
  /** 0-based page. */
  page?: number;
  pageSize?: number;
}

/** A sample as the viewer shows it. */
export interface SampleView extends SampleEntry, SampleText {
  /** Its position in the run's index. */
  id: number;
  /** What put it in its behavior (discovery's explanation; empty when its behavior came from a rule). */
  explain: string[];
  /** Why its text could not be read back (the file changed or is gone); the text is then empty. */
  error?: string;
}

export interface SamplePage {
  /** Samples that pass the filters (and the search). */
  total: number;
  page: number;
  pageSize: number;
  rows: SampleView[];
}

export const PAGE_SIZE = 20;
export const PAGE_SIZE_MAX = 200;

/** The words of a search: lower-cased, split on white space. */
export function searchWords(text: string | undefined): string[] {
  return (text ?? '').toLowerCase().split(/\s+/).filter(Boolean);
}

/** Whether every word occurs in the prompt or the response. */
export function matchesSearch(words: readonly string[], t: Pick<SampleText, 'prompt' | 'response'>): boolean {
  if (!words.length) return true;
  const hay = `${t.prompt}\n${t.response}`.toLowerCase();
  return words.every((w) => hay.includes(w));
}

export interface BrowseDeps {
  /** Reads a sample's text from its file. */
  read(file: string, index: number): Promise<SampleText>;
  /** Discovery's explanation of a sample's behavior; none: the rules named it. */
  explain?(entry: SampleEntry, text: SampleText): string[];
  /** The titles of the run's discovered states and behaviors as they are now; none: the names are all there is. */
  titles?(): LabelTitles;
}

const EMPTY_TEXT: SampleText = { prompt: '', response: '', toolCalls: [], fields: {} };

export class SampleBrowser {
  /** The last search: its key and the positions that matched. */
  #search: { key: string; size: number; ids: number[] } | null = null;

  constructor(
    readonly index: SampleIndex,
    private readonly deps: BrowseDeps,
  ) {}

  facets(): SampleFacets {
    const titles = this.deps.titles?.();
    return titles ? { ...this.index.facets(), titles } : this.index.facets();
  }

  async query(q: SampleQuery): Promise<SamplePage> {
    const pageSize = Math.min(PAGE_SIZE_MAX, Math.max(1, Math.floor(q.pageSize ?? PAGE_SIZE)));
    const ids = await this.#ids(q);
    const pages = Math.max(1, Math.ceil(ids.length / pageSize));
    const page = Math.min(pages - 1, Math.max(0, Math.floor(q.page ?? 0)));
    const rows = await Promise.all(ids.slice(page * pageSize, (page + 1) * pageSize).map((id) => this.view(id)));
    return { total: ids.length, page, pageSize, rows };
  }

  /**
   * The text of the samples that pass `f` (or, with `others`, of those that do not), at most `max`
   * of them spread evenly over the run (a rule is proposed from these: the behavior's samples and the
   * rest), each with the behavior the lab measured it as (where a rule's other matches fall).
   */
  async texts(f: SampleFilter, max: number, others = false): Promise<(SampleText & { measuredAs: string })[]> {
    let ids = this.index.select(f);
    if (others) {
      const own = new Set(ids);
      ids = [];
      for (let i = 0; i < this.index.size; i++) if (!own.has(i)) ids.push(i);
    }
    const step = Math.max(1, ids.length / Math.max(1, max));
    const picked: number[] = [];
    for (let k = 0; k < ids.length && picked.length < max; k += step) picked.push(ids[Math.floor(k)]);
    const out: (SampleText & { measuredAs: string })[] = [];
    for (const id of picked) {
      const e = this.index.get(id);
      const t = await this.deps.read(e.file, e.index).catch(() => null);
      if (t) out.push({ ...t, measuredAs: e.behavior });
    }
    return out;
  }

  /** One sample by its position in the index. */
  async view(id: number): Promise<SampleView> {
    const e = this.index.get(id);
    try {
      const t = await this.deps.read(e.file, e.index);
      return { ...e, ...t, id, explain: this.deps.explain?.(e, t) ?? [] };
    } catch (err) {
      return { ...e, ...EMPTY_TEXT, id, explain: [], error: errorText(err) };
    }
  }

  async #ids(q: SampleQuery): Promise<number[]> {
    const ids = this.index.select(q);
    const words = searchWords(q.text);
    if (!words.length) return ids;
    const key = JSON.stringify([q.step ?? null, q.state ?? null, q.behavior ?? null, q.rule ?? null, q.decision ?? null, words]);
    if (this.#search?.key === key && this.#search.size === this.index.size) return this.#search.ids;
    const found: number[] = [];
    for (const id of ids) {
      const e = this.index.get(id);
      const t = await this.deps.read(e.file, e.index).catch(() => null);
      if (t && matchesSearch(words, t)) found.push(id);
    }
    this.#search = { key, size: this.index.size, ids: found };
    return found;
  }
}

/** A per-sample line (the one `--samples-out` writes) as far as the index reads it. */
export interface SampleLineLike {
  step: number;
  file: string;
  index: number;
  state: string;
  behavior: string;
  reward: number | null;
  decision?: { rule: number; queued: boolean; loss_mask: number };
}

/** A run's samples as they are imported or followed: indexed as they come, browsed by query. */
export class RunSamples {
  readonly index = new SampleIndex();
  readonly browser: SampleBrowser;

  constructor(deps: BrowseDeps) {
    this.browser = new SampleBrowser(this.index, deps);
  }

  /** A sample as the import read it (1-based line or row) with what the lab made of it. */
  add(s: Pick<ImportedSample, 'step' | 'file' | 'line' | 'reward'>, state: string, behavior: string, gate?: { rule: string; decision: string }): void {
    this.index.add({ step: s.step, file: s.file, index: s.line - 1, state, behavior, reward: s.reward, rule: gate?.rule ?? null, decision: gate?.decision ?? null });
  }

  /**
   * A measured step's per-sample lines (a step that comes again replaces its samples), the gate's
   * decisions named by their rule in the gate replayed (its label, else "rule N").
   */
  /**
   * Where a measure or a follower hands each step's per-sample lines (as `--samples-out` gets them):
   * into this index, decisions named by `gate`'s rules; `restart` (an import read again) starts over.
   */
  sink(gate: Gate | null): { root: string; step(step: number, rows: SampleLineLike[]): void; restart(): void } {
    return { root: '', step: (step, rows) => this.addStep(step, rows, gate), restart: () => this.index.clear() };
  }

  addStep(step: number, rows: readonly SampleLineLike[], gate?: Gate | null): void {
    this.index.dropStep(step);
    for (const r of rows) {
      const d = r.decision;
      this.index.add({ step: r.step, file: r.file, index: r.index, state: r.state, behavior: r.behavior, reward: r.reward, rule: d ? (gate ? ruleName(gate, d.rule) : `rule ${d.rule + 1}`) : null, decision: d ? decisionText(d) : null });
    }
  }
}

const PARAM_KEYS = { step: 'step', state: 'state', behavior: 'behavior', rule: 'rule', decision: 'decision', text: 'q', page: 'page', pageSize: 'size' } as const;

/** A query as URL parameters (the `--port` page asks the watch's sample endpoint with them). */
export function queryParams(q: SampleQuery): URLSearchParams {
  const p = new URLSearchParams();
  for (const [k, name] of Object.entries(PARAM_KEYS) as [keyof SampleQuery, string][]) {
    const v = q[k];
    if (v !== undefined && v !== null && v !== '') p.set(name, String(v));
  }
  return p;
}

/** URL parameters as a query; a number that is not a non-negative integer is refused by name. */
export function queryOfParams(p: URLSearchParams): SampleQuery {
  const int = (name: string): number | undefined => {
    const v = p.get(name);
    if (v === null) return undefined;
    if (!/^\d{1,9}$/.test(v)) throw new Error(`${name}: expected a non-negative integer, got "${v.slice(0, 40)}"`);
    return Number(v);
  };
  const str = (name: string): string | undefined => p.get(name) ?? undefined;
  return { step: int('step'), state: str('state'), behavior: str('behavior'), rule: str('rule'), decision: str('decision'), text: str('q'), page: int('page'), pageSize: int('size') };
}

/** Where `npm run watch --port` answers sample queries (beside its event stream, live/events): a page and the filters' values. */
export const LIVE_SAMPLES = 'live/samples';
export const LIVE_SAMPLE_FACETS = 'live/samples/facets';

/**
 * What put a sample in its discovered behavior, in words (discovery's evidence: distinctive words,
 * its shape); empty when its behavior came from a rule or the log, or discovery is not running.
 */
export function explainLabel(discovery: { behaviors: { explain(s: ImportedSample): { label: string; evidence: string[] } } | null } | null, e: SampleEntry, t: SampleText): string[] {
  if (!discovery?.behaviors) return [];
  const x = discovery.behaviors.explain({ ...emptySample(e.file, e.index + 1), step: e.step, prompt: t.prompt, response: t.response, toolCalls: t.toolCalls, fields: t.fields });
  if (x.label !== e.behavior) return []; // a rule named it, or the clusters have moved on since its step
  return x.evidence;
}
