// Presets: workshop lessons as { title, explanation, config, state?, watch?, evidence? } where config
// holds only the settings that differ from the defaults. Validated against the config schema and the
// task; their numbers are placeholders filled from the lesson's measurements (lesson-text.ts).
import { ConfigError, makeConfig, type Config } from './config';
import { depthError } from './json-depth';
import { fillText, type LessonMeasures } from './lesson-text';
import { taskLabel, taskOf } from './tasks/registry';

export interface Preset {
  title: string;
  /** What the run shows means: a few plain sentences. */
  explanation: string;
  /** Settings that differ from the defaults. */
  config: Partial<Config>;
  /** The task state the lesson talks about: the views open on it (default: the mean over states). */
  state?: string;
  /** One line for a newcomer: what to press and what to watch. */
  watch?: string;
  /** How we know: the measurements behind the lesson (shown on request). */
  evidence?: string;
}

const TEXT_KEYS = ['title', 'explanation', 'watch', 'evidence'] as const;

/**
 * A preset, checked. With `measures` its texts' placeholders are filled (a missing value is an
 * error); without, they stay as written (for the settings alone).
 */
export function parsePreset(name: string, obj: unknown, measures?: LessonMeasures): Preset & { resolved: Config } {
  const deep = depthError(obj, `preset ${name}`);
  if (deep) throw new Error(deep);
  if (obj === null || typeof obj !== 'object') throw new Error(`preset ${name}: expected an object`);
  const o = obj as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!['title', 'explanation', 'config', 'state', 'watch', 'evidence'].includes(k)) throw new Error(`preset ${name}: unknown key ${k}`);
  if (typeof o.title !== 'string' || !o.title) throw new Error(`preset ${name}: title must be a non-empty string`);
  if (typeof o.explanation !== 'string' || o.explanation.length < 40) throw new Error(`preset ${name}: explanation must be a paragraph`);
  if (o.config === null || typeof o.config !== 'object' || Array.isArray(o.config)) throw new Error(`preset ${name}: config must be an object`);
  try {
    const resolved = makeConfig(o.config as Record<string, unknown>);
    const states = taskOf(resolved).states.map((s) => s.name);
    if (o.state !== undefined && (typeof o.state !== 'string' || !states.includes(o.state))) {
      throw new Error(`preset ${name}: state must be one of ${taskLabel(resolved)}'s states (${states.join(', ')}), got ${JSON.stringify(o.state)}`);
    }
    if (o.watch !== undefined && (typeof o.watch !== 'string' || !o.watch.trim())) throw new Error(`preset ${name}: watch must be a non-empty line`);
    if (o.evidence !== undefined && (typeof o.evidence !== 'string' || !o.evidence.trim())) throw new Error(`preset ${name}: evidence must be a non-empty paragraph`);
    // the lesson's own settings are values too ({config.steps}): the text cannot drift from them either
    const values = measures ? { ...measures.values, ...configValues(resolved) } : null;
    const fill = (k: (typeof TEXT_KEYS)[number]) => (values ? fillText(o[k] as string, values, `preset ${name}: ${k}`) : (o[k] as string));
    return {
      title: fill('title'),
      explanation: fill('explanation'),
      config: o.config as Partial<Config>,
      resolved,
      ...(o.state !== undefined ? { state: o.state as string } : {}),
      ...(o.watch !== undefined ? { watch: fill('watch') } : {}),
      ...(o.evidence !== undefined ? { evidence: fill('evidence') } : {}),
    };
  } catch (e) {
    if (e instanceof ConfigError) throw new Error(`preset ${name}: ${e.message}`);
    throw e;
  }
}

/** A config's numeric and text settings as text values `config.<key>`. */
function configValues(config: Config): Record<string, number | string> {
  return Object.fromEntries(Object.entries(config).filter(([, v]) => typeof v === 'number' || typeof v === 'string').map(([k, v]) => [`config.${k}`, v as number | string]));
}
