/**
 * The import as it is kept across a reload, like the task and gate editors' drafts: per tab (a
 * reload or a restored tab brings it back, another tab of the lab starts empty). The rules and
 * settings go to sessionStorage (`readKeptImport` checks what comes back: a bad value is no
 * import); the files — too large for it — to IndexedDB under this tab's id, up to
 * MAX_KEPT_FILE_BYTES in all (larger imports keep their rules and say the files must be picked again).
 */
import { openDB, type IDBPDatabase } from 'idb';
import { FORMATS, parseStatesSpec, type FormatId, type StatesSpec } from '../../core/import/index';
import { isObject } from '../../core/unknown';

export const IMPORT_KEY = 'invariant-lab/import';
/** Most bytes of files kept for a reload (the files are picked again past it). */
export const MAX_KEPT_FILE_BYTES = 64 * 1024 * 1024;
const DB_NAME = 'invariant-lab-import';

export interface KeptImport {
  /** This tab's key of the kept files. */
  tab: string;
  open: boolean;
  format: FormatId | 'auto';
  openclawBatch: number;
  eps: number;
  statesSpec: StatesSpec;
  behaviorsText: string;
  gateText: string;
  /** The reward field(s) and vote threshold as typed ('' = the log's own). */
  rewardText: string;
  rewardThreshold: string;
  /** The import had been measured: measure again once the files are back. */
  measured: boolean;
}

/** What a stored value holds; anything unreadable (an older shape, a hand edit) is no import. */
export function readKeptImport(json: string | null): KeptImport | null {
  if (!json) return null;
  try {
    const o = JSON.parse(json) as unknown;
    if (!isObject(o)) return null;
    const { tab, open, format, openclawBatch, eps, statesSpec, behaviorsText, gateText, measured } = o;
    const text = (x: unknown) => (typeof x === 'string' && x.length <= 1000 ? x : '');
    if (typeof tab !== 'string' || !/^[\w-]{1,64}$/.test(tab)) return null;
    if (format !== 'auto' && !(FORMATS as readonly unknown[]).includes(format)) return null;
    if (typeof openclawBatch !== 'number' || !Number.isInteger(openclawBatch) || openclawBatch < 1 || openclawBatch > 4096) return null;
    if (typeof eps !== 'number' || !(eps >= 0 && eps <= 0.5)) return null;
    if (typeof behaviorsText !== 'string' || behaviorsText.length > 200_000 || typeof gateText !== 'string' || gateText.length > 200_000) return null;
    return { tab, open: open === true, format: format as FormatId | 'auto', openclawBatch, eps, statesSpec: parseStatesSpec(statesSpec), behaviorsText, gateText, rewardText: text(o.rewardText), rewardThreshold: text(o.rewardThreshold), measured: measured === true };
  } catch {
    return null;
  }
}

export interface KeptFiles {
  files: File[];
  /** Files left out because they were larger than MAX_KEPT_FILE_BYTES in all (0: none). */
  skipped: number;
  skippedBytes: number;
}

/** The files to keep: all of them, or none when they are larger than `max` in all. */
export function filesToKeep(files: readonly File[], max = MAX_KEPT_FILE_BYTES): KeptFiles {
  const bytes = files.reduce((a, f) => a + f.size, 0);
  return bytes <= max ? { files: [...files], skipped: 0, skippedBytes: 0 } : { files: [], skipped: files.length, skippedBytes: bytes };
}

/** Reads and writes this tab's kept import. Storage that refuses (privacy settings, full) keeps nothing, silently: the page still holds the import. */
export class ImportKeeper {
  #db: Promise<IDBPDatabase> | null = null;
  readonly tab: string;
  #kept: KeptImport | null;

  constructor(private readonly storage: Pick<Storage, 'getItem' | 'setItem'> | null) {
    let kept: KeptImport | null = null;
    try {
      kept = readKeptImport(storage?.getItem(IMPORT_KEY) ?? null);
    } catch {
      kept = null;
    }
    this.#kept = kept;
    this.tab = kept?.tab ?? `tab-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  }

  /** The import kept before the reload (null: none). */
  get kept(): KeptImport | null {
    return this.#kept;
  }

  #open(): Promise<IDBPDatabase> {
    return (this.#db ??= openDB(DB_NAME, 1, { upgrade: (db) => void db.createObjectStore('files') }));
  }

  saveRules(k: Omit<KeptImport, 'tab'>): void {
    try {
      this.storage?.setItem(IMPORT_KEY, JSON.stringify({ ...k, tab: this.tab }));
    } catch {
      // full or refused
    }
  }

  async saveFiles(files: readonly File[]): Promise<void> {
    try {
      await (await this.#open()).put('files', filesToKeep(files), this.tab);
    } catch {
      // refused: a reload asks for the files again
    }
  }

  async loadFiles(): Promise<KeptFiles | null> {
    try {
      const v = (await (await this.#open()).get('files', this.tab)) as KeptFiles | undefined;
      return v && Array.isArray(v.files) ? v : null;
    } catch {
      return null;
    }
  }
}
