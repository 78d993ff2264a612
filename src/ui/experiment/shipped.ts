/**
 * The shipped lesson experiments (`public/experiments/*.json`), fetched and validated by the core's
 * parseExperimentSpec; like the lessons, the glob only lists the files. A bad file is left out.
 */
import { parseExperimentSpec, type ExperimentSpec } from '../../core/experiment/spec';

const idOf = (path: string) => path.slice(path.lastIndexOf('/') + 1, -'.json'.length);
export const SPEC_IDS: readonly string[] = Object.keys(import.meta.glob('../../../public/experiments/*.json')).map(idOf).sort();

export async function fetchShippedSpecs(baseUrl: string): Promise<ReadonlyMap<string, ExperimentSpec>> {
  const out = new Map<string, ExperimentSpec>();
  await Promise.all(
    SPEC_IDS.map(async (id) => {
      try {
        const res = await fetch(new URL(`experiments/${id}.json`, baseUrl));
        if (res.ok) out.set(id, parseExperimentSpec(await res.json()));
      } catch {
        // left out of the picker; `npm test` validates the shipped specs
      }
    }),
  );
  return new Map([...out].sort((a, b) => a[0].localeCompare(b[0])));
}
