// A custom task in a link. A spec short enough rides in the link as its JSON (`spec=...`); a longer
// one is stored in this browser under a name and the link names it (`spec=stored:<name>.<hash>`), so
// the link says that it only opens where the spec is stored.
import { encodeQueryValue } from '../../core/config';
import { hash32 } from '../../core/rng';
import { parseTaskSpec } from '../../core/tasks/validate';

/** Longest spec carried in a link itself, URL-encoded (the whole query is read up to 4,000 characters). */
export const SPEC_LINK_MAX = 2400;
export const STORED_PREFIX = 'stored:';

export interface SpecLinks {
  /** Keep `text` and return the name a link carries. */
  store(text: string): string;
  /** The text stored under a name a link carried, or null. */
  load(ref: string): string | null;
}

/** The name a stored spec goes by: its own name (as a slug) and a hash of its text. */
export function storedRef(text: string): string {
  const r = parseTaskSpec(text);
  const slug = (r.ok ? r.spec.name : 'task').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 24) || 'task';
  return `${STORED_PREFIX}${slug}.${hash32(text).toString(16).padStart(8, '0')}`;
}

/** What the link carries for a spec's text. */
export function specLinkValue(text: string, links: SpecLinks | undefined): string {
  return encodeQueryValue(text).length <= SPEC_LINK_MAX || !links ? text : links.store(text);
}

/** The spec text a link value stands for; an error message when it names a spec not stored here. */
export function specFromLink(value: string, links: SpecLinks | undefined): { text: string } | { error: string } {
  if (!value.startsWith(STORED_PREFIX)) return { text: value };
  const text = links?.load(value) ?? null;
  return text === null
    ? { error: `the link names a task spec stored in another browser (${value.slice(0, 60)}); it is not stored here, so the built-in task is used` }
    : { text };
}

/** Specs kept in localStorage (shared by this browser's tabs). */
export function browserSpecLinks(storage: Storage | undefined = globalThis.localStorage): SpecLinks {
  const key = (ref: string) => `invariant-lab/task-spec/${ref}`;
  return {
    store(text) {
      const ref = storedRef(text);
      try {
        storage?.setItem(key(ref), text);
      } catch {
        // storage full or off: the link still names it; opening it elsewhere reports it missing
      }
      return ref;
    },
    load(ref) {
      try {
        return storage?.getItem(key(ref)) ?? null;
      } catch {
        return null;
      }
    },
  };
}
