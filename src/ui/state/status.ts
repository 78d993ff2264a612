/**
 * The status line (pure): what the runs are doing and what to press next, never blank once the
 * engine is up, with presenter-hidden values taken out.
 */
import type { Config, ConfigKey } from '../../core/config';
import type { LabStatus } from '../../../workers/lab.api';
import { redact } from './presenter';

export interface StatusInput {
  /** The lab's own message (a failed action). */
  labMessage: string;
  status: LabStatus | null;
  /** Run B's message when comparing. */
  compareMessage?: string;
  config: Config;
  hidden: readonly ConfigKey[];
}

export function statusText({ labMessage, status, compareMessage = '', config, hidden }: StatusInput): string {
  if (!status) return redact(labMessage || 'warming up engine…', config, hidden);
  const lines = [labMessage, status.message, compareMessage ? `B: ${compareMessage}` : ''].filter(Boolean);
  if (!lines.length) {
    if (status.phase === 'ready') lines.push(`ready: press Play (space) or Step (→). ${status.backendNote}; base: ${status.baseSource}.`);
    else if (status.phase === 'paused') lines.push(`paused at step ${status.step}: press Play (space) or Step (→)`);
    else if (status.phase === 'done') lines.push(`finished at step ${status.step}: Reset (r) to run again`);
  }
  return redact(lines.join(' · '), config, hidden);
}
