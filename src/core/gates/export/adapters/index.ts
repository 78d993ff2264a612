// The trainer adapters, one file per trainer (each cites the trainer code it follows), and the
// refusal of a gate that reads a field the chosen trainer's hook cannot see.
import type { Adapter, AdapterTarget } from './types';
import { slime } from './slime';

export type { Adapter, AdapterTarget } from './types';

export const ADAPTERS: Readonly<Partial<Record<AdapterTarget, Adapter>>> = { slime };

/** The fields of `reads` the adapter cannot provide, each with the reason (empty: the gate exports). */
export function unavailableReads(adapter: Adapter, reads: Iterable<string>): { field: string; reason: string }[] {
  const out: { field: string; reason: string }[] = [];
  for (const f of [...new Set(reads)].sort()) {
    const reason = Object.prototype.hasOwnProperty.call(adapter.unavailable, f) ? (adapter.unavailable as Record<string, string>)[f] : undefined;
    if (reason !== undefined) out.push({ field: f, reason });
  }
  return out;
}

/** The message refusing a gate for a target, or null when every field it reads is available. */
export function refusal(adapter: Adapter, reads: Iterable<string>): string | null {
  const bad = unavailableReads(adapter, reads);
  if (!bad.length) return null;
  return `the gate cannot export to ${adapter.target} (${adapter.title}): ${bad.map((b) => `field ${b.field}: ${b.reason}`).join('; ')}`;
}
