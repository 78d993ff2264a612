// Presets: workshop lessons as { title, explanation, config, state?, watch? } where config holds only
// the settings that differ from the defaults. Validated against the config schema and the task.
import { ConfigError, makeConfig, type Config } from './config';
import { depthError } from './json-depth';
import { taskLabel, taskOf } from './tasks/registry';

export interface Preset {
  title: string;
  explanation: string;
  /** Settings that differ from the defaults. */
  config: Partial<Config>;
  /** The task state the lesson talks about: the views open on it (default: the mean over states). */
  state?: string;
  /** One line for a newcomer: what to press and what to watch. */
  watch?: string;
}

export function parsePreset(name: string, obj: unknown): Preset & { resolved: Config } {
  const deep = depthError(obj, `preset ${name}`);
  if (deep) throw new Error(deep);
  if (obj === null || typeof obj !== 'object') throw new Error(`preset ${name}: expected an object`);
  const o = obj as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!['title', 'explanation', 'config', 'state', 'watch'].includes(k)) throw new Error(`preset ${name}: unknown key ${k}`);
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
    return {
      title: o.title,
      explanation: o.explanation,
      config: o.config as Partial<Config>,
      resolved,
      ...(o.state !== undefined ? { state: o.state as string } : {}),
      ...(o.watch !== undefined ? { watch: o.watch as string } : {}),
    };
  } catch (e) {
    if (e instanceof ConfigError) throw new Error(`preset ${name}: ${e.message}`);
    throw e;
  }
}
