/**
 * The controls a lesson's watch line tells the class to use, so that projector mode (which has no
 * controls column) shows exactly those: a setting the line says to set or (un)tick by its label in
 * the schema (src/core/config: fieldLabel), and the gate editor when the line sends the class there.
 */
import { CONFIG_KEYS, fieldLabel, type ConfigKey } from '../../core/config';

export interface NamedControls {
  /** Settings, in the schema's order. */
  settings: ConfigKey[];
  /** The line sends the class to the Gate editor. */
  gateEditor: boolean;
}

const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** "set ε_high to …", "untick "at least one"": the verb, then the label (quoted or not). */
function tellsToChange(watch: string, key: ConfigKey): boolean {
  return new RegExp(`\\b(set|tick|untick)\\s+"?${escaped(fieldLabel(key))}(?![\\w-])`, 'i').test(watch);
}

export function controlsNamedIn(watch: string): NamedControls {
  return { settings: CONFIG_KEYS.filter((k) => tellsToChange(watch, k)), gateEditor: /\bgate editor\b/i.test(watch) };
}
