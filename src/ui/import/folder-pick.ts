// Choosing a folder to follow live in the page: whether this browser can (the File System Access
// API's showDirectoryPicker, Chromium only, in a secure context), the picker itself, and the log
// format a folder's file names say (verl step files, TRL completions) when the format is "detect".
import type { FormatId } from '../../core/import/index';
import { stepFileStep } from '../../core/import/read/run-folder';

type Picker = (opts?: { id?: string; mode?: 'read' }) => Promise<FileSystemDirectoryHandle>;

/** Why this page cannot follow a folder, in plain words; null when it can. */
export function folderFollowMissing(g: { isSecureContext?: boolean; showDirectoryPicker?: unknown } = globalThis as never): string | null {
  if (!g.isSecureContext) return 'Following a folder live needs a secure page (https:// or http://localhost); this page is not one, so the browser does not offer folder access.';
  if (typeof g.showDirectoryPicker !== 'function') return 'This browser cannot give the page a folder to watch (the File System Access API is in Chromium-based browsers — Chrome, Edge — not in Firefox or Safari).';
  return null;
}

/** The folder the user picks (read access); null when they cancel. */
export async function pickFolder(): Promise<FileSystemDirectoryHandle | null> {
  try {
    return await (globalThis as unknown as { showDirectoryPicker: Picker }).showDirectoryPicker({ id: 'follow-run', mode: 'read' });
  } catch (e) {
    if ((e as { name?: string }).name === 'AbortError') return null;
    throw e;
  }
}

/** The format a folder's file names say: verl step files ({step}.jsonl) or TRL completions; null when they say neither. */
export function formatOfNames(paths: readonly string[]): FormatId | null {
  if (paths.some((p) => stepFileStep(p, 'trl') !== null)) return 'trl';
  if (paths.some((p) => stepFileStep(p, 'verl') !== null)) return 'verl';
  return null;
}
