// Settings as text (a query value, a CLI --set): strict decimal numbers, never Number()'s guesses
// ("0x10", "0b1", "Infinity", " 1", "" as 0).
import { fieldSpec, isConfigKey, type Config, type ConfigKey } from './schema';
import { checkField, describeValue } from './field';
import { ConfigError } from './validate';

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const WHOLE = /^\d+$/;

/** A plain decimal number ("3", "-0.5", "3e-4"), else null. */
export function parseDecimal(text: string): number | null {
  return DECIMAL.test(text) ? Number(text) : null;
}

/** A whole number written in decimal digits only ("12"; not "0x1", " 1", "1e3", "+1"), else null. */
export function parseWholeNumber(text: string): number | null {
  if (!WHOLE.test(text)) return null;
  const v = Number(text);
  return Number.isSafeInteger(v) ? v : null;
}

/** Parse a text value for a field; throws ConfigError on a bad value or unknown key. */
export function parseField(key: string, text: string): Config[ConfigKey] {
  if (!isConfigKey(key)) throw new ConfigError(key, 'unknown setting');
  const f = fieldSpec(key);
  let value: unknown = text;
  if (f.type === 'bool') value = text === 'true' || text === '1' ? true : text === 'false' || text === '0' ? false : text;
  else if (f.type === 'int' || f.type === 'float') {
    value = parseDecimal(text);
    if (value === null) throw new ConfigError(key, `expected a decimal number, got ${describeValue(text)}`);
  }
  const msg = checkField(key, value);
  if (msg) throw new ConfigError(key, msg);
  return value as Config[ConfigKey];
}

export function formatField(key: ConfigKey, value: Config[ConfigKey]): string {
  return typeof value === 'boolean' ? (value ? '1' : '0') : String(value);
}
