/**
 * The workshop lessons: `public/presets/<id>.json` with their measured numbers
 * (`public/presets/measured/<id>.json`), fetched at start-up and validated against the core schema
 * by the core's parsePreset, which fills the texts' numbers from the measurements. The glob below
 * only lists the files (its importers are never called), so the presets stay plain public files,
 * served as they are in dev and in the build.
 */
import { errorText } from '../../core/unknown';
import type { Config } from '../../core/config';
import { parseMeasures } from '../../core/lesson-text';
import { parsePreset, type Preset } from '../../core/presets';

export interface Lesson extends Preset {
  /** File name without `.json`, e.g. `a-support-collapse`: the `lesson=` URL value. */
  id: string;
  resolved: Config;
}

export type Lessons = ReadonlyMap<string, Lesson>;

const idOf = (path: string) => path.slice(path.lastIndexOf('/') + 1, -'.json'.length);

export const LESSON_IDS: readonly string[] = Object.keys(import.meta.glob('../../../public/presets/*.json')).map(idOf).sort();

/** A lesson from its preset and its measurements (both as parsed JSON). */
export function parseLesson(id: string, json: unknown, measured: unknown): Lesson {
  return { id, ...parsePreset(id, json, parseMeasures(id, measured)) };
}

async function fetchJson(url: URL): Promise<unknown> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url.pathname}: HTTP ${res.status}`);
  return res.json();
}

/** Fetch and validate every lesson; a lesson that fails to load is left out and reported. */
export async function fetchLessons(baseUrl: string): Promise<{ lessons: Lessons; problems: string[] }> {
  const problems: string[] = [];
  const loaded = await Promise.all(
    LESSON_IDS.map(async (id) => {
      try {
        const [preset, measured] = await Promise.all([fetchJson(new URL(`presets/${id}.json`, baseUrl)), fetchJson(new URL(`presets/measured/${id}.json`, baseUrl))]);
        return parseLesson(id, preset, measured);
      } catch (e) {
        problems.push(`lesson ${id}: ${errorText(e)}`);
        return null;
      }
    }),
  );
  return { lessons: new Map(loaded.filter((l): l is Lesson => l !== null).map((l) => [l.id, l])), problems };
}
