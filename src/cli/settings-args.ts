// Settings on a command line: key=value flags (`npm run lab -- --set`, `--fork-set`, `npm run
// import -- --simulate-set`) through the schema's parseField, and a lesson preset's settings by name
// or file. A bad one is a bad command line naming its flag.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeValue, parseField } from '../core/config';
import { parsePreset } from '../core/presets';
import { errorText } from '../core/unknown';
import { UsageError } from './args';
import { parseFile, readJsonFile } from './files';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** key=value flags as settings. */
export function settingsOf(flag: string, pairs: readonly string[]): Record<string, unknown> {
  const partial: Record<string, unknown> = {};
  for (const kv of pairs) {
    const eq = kv.indexOf('=');
    if (eq < 1) throw new UsageError(`${flag} expects key=value, got ${describeValue(kv)}`);
    try {
      partial[kv.slice(0, eq)] = parseField(kv.slice(0, eq), kv.slice(eq + 1));
    } catch (e) {
      throw new UsageError(`${flag} ${errorText(e)}`);
    }
  }
  return partial;
}

/** A preset's settings: NAME (public/presets/NAME.json) or a .json file. */
export function presetSettings(preset: string): Record<string, unknown> {
  const file = preset.endsWith('.json') ? preset : join(root, 'public/presets', `${preset}.json`);
  // parsePreset names the preset and the field (config.lr: ...); the path names the file.
  return { ...parseFile(file, 'preset', readJsonFile, (x) => parsePreset(preset, x)).config };
}
