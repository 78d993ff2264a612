// Presets: workshop lessons as { title, explanation, config } where config holds only the settings
// that differ from the defaults. Validated against the config schema.
import { ConfigError, makeConfig, type Config } from './config';

export interface Preset {
  title: string;
  explanation: string;
  /** Settings that differ from the defaults. */
  config: Partial<Config>;
}

export function parsePreset(name: string, obj: unknown): Preset & { resolved: Config } {
  if (obj === null || typeof obj !== 'object') throw new Error(`preset ${name}: expected an object`);
  const o = obj as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!['title', 'explanation', 'config'].includes(k)) throw new Error(`preset ${name}: unknown key ${k}`);
  if (typeof o.title !== 'string' || !o.title) throw new Error(`preset ${name}: title must be a non-empty string`);
  if (typeof o.explanation !== 'string' || o.explanation.length < 40) throw new Error(`preset ${name}: explanation must be a paragraph`);
  if (o.config === null || typeof o.config !== 'object' || Array.isArray(o.config)) throw new Error(`preset ${name}: config must be an object`);
  try {
    const resolved = makeConfig(o.config as Record<string, unknown>);
    return { title: o.title, explanation: o.explanation, config: o.config as Partial<Config>, resolved };
  } catch (e) {
    if (e instanceof ConfigError) throw new Error(`preset ${name}: ${e.message}`);
    throw e;
  }
}
