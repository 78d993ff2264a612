/**
 * State of the rollout viewer (rune module): which run's samples it shows (source.ts), the filters,
 * the search and the page, and the page of samples last read. A newer query's answer replaces an
 * older one's, never the other way round.
 */
import type { SampleFacets, SamplePage } from '../../core/import/browse/index';
import { errorText } from '../../core/unknown';
import type { SampleSource } from './source';
import { pageCount, type SamplePick } from './viewer-model';

export const VIEWER_PAGE_SIZE = 20;

export class SampleViewerState {
  open = $state(false);
  source = $state.raw<SampleSource | null>(null);
  pick = $state<SamplePick>({});
  page = $state(0);
  facets = $state.raw<SampleFacets | null>(null);
  result = $state.raw<SamplePage | null>(null);
  loading = $state(false);
  /** Whether opening moves the focus into the viewer (keyboard) or leaves it (a mouse click). */
  focusOnOpen = $state(true);
  error = $state('');
  #asked = 0;

  /** Open on `source`'s samples that `pick` asks for (a plot point, a marker, an alarm). */
  async show(source: SampleSource, pick: SamplePick, how: { focus: boolean } = { focus: true }): Promise<void> {
    this.focusOnOpen = how.focus;
    this.source = source;
    this.pick = { ...pick };
    this.page = 0;
    this.open = true;
    this.facets = null;
    await this.refresh();
  }

  /** Filter by one more value (or clear it with null / ''), back to the first page. */
  async set(change: SamplePick): Promise<void> {
    this.pick = { ...this.pick, ...change };
    this.page = 0;
    await this.refresh();
  }

  async turn(by: number): Promise<void> {
    if (!this.result) return;
    const to = Math.min(pageCount(this.result) - 1, Math.max(0, this.page + by));
    if (to === this.page) return;
    this.page = to;
    await this.refresh();
  }

  async refresh(): Promise<void> {
    const source = this.source;
    if (!source) return;
    const asked = ++this.#asked;
    this.loading = true;
    // the facets with every page: a followed run's steps, names and titles move on while the viewer is open
    const facets = source.facets().catch(() => null);
    try {
      const r = await source.query({ ...$state.snapshot(this.pick), page: this.page, pageSize: VIEWER_PAGE_SIZE });
      if (asked !== this.#asked) return;
      this.result = r;
      this.page = r.page;
      this.error = '';
    } catch (e) {
      if (asked === this.#asked) this.error = errorText(e);
    } finally {
      if (asked === this.#asked) this.loading = false;
    }
    const f = await facets;
    if (asked === this.#asked && (f || !this.facets)) this.facets = f;
  }

  close(): void {
    this.open = false;
  }
}
