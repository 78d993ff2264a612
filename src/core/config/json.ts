// The JSON codec: a config as a JSON object with its schema version; missing fields take defaults.
import { CONFIG_VERSION, type Config } from './schema';
import { describeValue } from './field';
import { ConfigError, makeConfig } from './validate';

export function configToJson(c: Config): string {
  return JSON.stringify({ v: CONFIG_VERSION, ...c });
}

/** Parse JSON text or an object; missing fields take defaults. */
export function configFromJson(input: string | Record<string, unknown>): Config {
  const obj = typeof input === 'string' ? (JSON.parse(input) as Record<string, unknown>) : { ...input };
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) throw new ConfigError('(root)', 'expected a JSON object');
  checkVersion(obj.v);
  delete obj.v;
  return makeConfig(obj);
}

function checkVersion(v: unknown): void {
  if (v !== undefined && v !== CONFIG_VERSION && v !== String(CONFIG_VERSION)) throw new ConfigError('v', `unsupported config version ${describeValue(v)}`);
}
