// The machine's load while a bench ran (/proc/loadavg on Linux: 1-, 5- and 15-minute averages and
// the core count), recorded beside wall times measured on a shared machine; null elsewhere.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

export function loadNow(): { loadavg: string; cores: number; at: string } | null {
  try {
    return { loadavg: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '), cores: availableParallelism(), at: new Date().toISOString() };
  } catch {
    return null;
  }
}
