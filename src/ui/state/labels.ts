/**
 * How a setting's value reads in the timeline and badges. Names, symbols and group titles are the
 * core schema's (src/core/config: fieldLabel, GROUP_TITLES, groupedKeys), never listed here.
 */
/** Value as text for the timeline and badges. */
export function formatSetting(v: unknown): string {
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(4)));
  // free text (the gate setting): '' is the method's built-in gate; rules are summarised, not inlined
  if (typeof v === 'string' && v.trim() === '') return 'built-in';
  if (typeof v === 'string' && /[\n\r]/.test(v)) return `${v.split(/\r?\n/).filter((l) => l.trim()).length} rules`;
  return String(v);
}
