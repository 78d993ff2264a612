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
  /** A lesson's watch line already says what to press: a ready run needs no words of its own. */
  watching?: boolean;
  /** Pause was pressed; the worker is finishing the step in flight (it is kept). */
  pausing?: boolean;
  /** Play was pressed before the engine was ready: it plays once it is. */
  playQueued?: boolean;
}

const QUEUED = 'Play pressed: the run starts as soon as the engine is ready (space again to cancel)';
const WARMING = 'warming up engine…';

export function statusText({ labMessage, status, compareMessage = '', config, hidden, watching = false, pausing = false, playQueued = false }: StatusInput): string {
  const queued = playQueued && (!status || ['loading', 'pretraining'].includes(status.phase)) ? QUEUED : '';
  if (!status) return redact([labMessage || WARMING, queued].filter(Boolean).join(' · '), config, hidden);
  // pausing is said first whatever else is said: it is the answer to the press
  const pausingLine = status.phase === 'running' && pausing ? `pausing… after the step in progress (now at step ${status.step})` : '';
  const lines = [pausingLine, labMessage, status.message, compareMessage ? `B: ${compareMessage}` : '', queued].filter(Boolean);
  if (!lines.length) {
    // the engine and base details live in the backend badge (its tooltip and screen-reader text)
    if (status.phase === 'ready' && !watching) lines.push('ready: press Play (space) or Step (→).');
    else if (status.phase === 'paused') lines.push(`paused at step ${status.step}: press Play (space) or Step (→)`);
    else if (status.phase === 'running') lines.push(`playing · step ${status.step}${status.stepsPerSecond > 0 ? ` · ${rate(status.stepsPerSecond)} steps/s` : ''}`);
    else if (status.phase === 'done') lines.push(`finished at step ${status.step}: Reset (r) to run again`);
  }
  return redact(lines.join(' · '), config, hidden);
}

/** Steps per second with sensible digits (0.42, 3.4, 51). */
function rate(x: number): string {
  return x >= 10 ? x.toFixed(0) : x >= 1 ? x.toFixed(1) : x.toFixed(2);
}
