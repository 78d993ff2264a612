/**
 * The workshop lessons: `public/presets/*.json`, bundled at build time (so the lesson picker is
 * there at first paint) and validated against the core schema by the core's parsePreset.
 */
import type { Config } from '../../core/config';
import { parsePreset, type Preset } from '../../core/presets';

export interface Lesson extends Preset {
  /** File name without `.json`, e.g. `a-support-collapse`: the `lesson=` URL value. */
  id: string;
  resolved: Config;
}

const files = import.meta.glob<unknown>('../../../public/presets/*.json', { eager: true, import: 'default' });

export const LESSONS: readonly Lesson[] = Object.entries(files)
  .map(([path, json]) => {
    const id = path.slice(path.lastIndexOf('/') + 1, -'.json'.length);
    return { id, ...parsePreset(id, json) };
  })
  .sort((a, b) => a.id.localeCompare(b.id));

export const LESSON_BY_ID: ReadonlyMap<string, Lesson> = new Map(LESSONS.map((l) => [l.id, l]));
