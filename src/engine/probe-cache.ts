// Probe results kept per adapter + code version + workload (IndexedDB: workers have no
// localStorage), so "auto" measures once and later starts are immediate. Through `idb` (the
// maintained promise wrapper the lab's storage uses); any storage failure just means measuring again.
import { openDB, type IDBPDatabase } from 'idb';
import type { BackendChoice } from './backend-choice';

const DB = 'invlab-backend-probe';
const STORE = 'choices';

export interface CachedChoice {
  choice: BackendChoice;
  /** When it was measured (ISO date). */
  at: string;
}

let db: Promise<IDBPDatabase> | null = null;

function open(): Promise<IDBPDatabase> {
  db ??= openDB(DB, 1, { upgrade: (d) => void d.createObjectStore(STORE) });
  return db;
}

export async function readChoice(key: string): Promise<CachedChoice | undefined> {
  try {
    return ((await (await open()).get(STORE, key)) as CachedChoice | undefined) ?? undefined;
  } catch {
    return undefined;
  }
}

export async function keepChoice(key: string, choice: BackendChoice): Promise<void> {
  try {
    await (await open()).put(STORE, { choice, at: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC' } satisfies CachedChoice, key);
  } catch {
    /* not kept: the next start measures again */
  }
}
