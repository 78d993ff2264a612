// The trainer adapters, one file per trainer (each cites the trainer code it follows). The export
// (../targets.ts exportGate) appends ADAPTERS[target].python to the gate's module and refuses a gate
// that reads a field in ADAPTERS[target].unavailable.
import type { Adapter, AdapterTarget } from './types';
import { openclaw } from './openclaw';
import { openclawOpd } from './openclaw-opd';
import { slime } from './slime';
import { trl } from './trl';
import { verl } from './verl';

export type { Adapter, AdapterTarget } from './types';

export const ADAPTERS: Readonly<Record<AdapterTarget, Adapter>> = { slime, openclaw, 'openclaw-opd': openclawOpd, verl, trl };
