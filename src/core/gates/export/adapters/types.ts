// The shape of a trainer adapter: the Python appended after the exported gate module (it calls the
// module's decide()), the fields its hook cannot see (the export refuses a gate reading one, for
// that target), and its docs (what it decides exactly as the lab, what it cannot).
import type { SampleFieldName } from '../../fields';

export type AdapterTarget = 'slime' | 'openclaw' | 'openclaw-opd' | 'verl' | 'trl';

export interface Adapter {
  target: AdapterTarget;
  /** One line: the trainer and the hook. */
  title: string;
  /** Field → why the hook cannot provide it. */
  unavailable: Readonly<Partial<Record<SampleFieldName, string>>>;
  /** Python (standard library only) that maps the trainer's objects to the fields and calls decide(). */
  python: string;
  /** Where the file goes, the flag or config, what it decides as the lab and what it cannot. */
  docs: string;
}
