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
  /** Run B's status when comparing: its message, else what it is doing, follows run A's. */
  compare?: LabStatus | null;
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

export function statusText({ labMessage, status, compare = null, config, hidden, watching = false, pausing = false, playQueued = false }: StatusInput): string {
  const queued = playQueued && (!status || ['loading', 'pretraining'].includes(status.phase)) ? QUEUED : '';
  if (!status) return redact([labMessage || WARMING, queued].filter(Boolean).join(' · '), config, hidden);
  // pausing is said first whatever else is said: it is the answer to the press
  const pausingLine = status.phase === 'running' && pausing ? `pausing… after the step in progress (now at step ${status.step})` : '';
  const said = [pausingLine, labMessage, status.message].filter(Boolean);
  // each run's own line: what B says never hides what A is doing (a fork of a finished run plays alone)
  const a = said.length ? said : [progress(status, !watching)];
  const b = compare ? compare.message || progress(compare, false) : '';
  return redact([...a, b ? `B: ${b}` : '', queued].filter(Boolean).join(' · '), config, hidden);
}

/** What an idle or playing run is doing ('' while it loads, or when ready and `sayReady` is off). */
function progress(status: LabStatus, sayReady: boolean): string {
  // the engine and base details live in the backend badge (its tooltip and screen-reader text)
  if (status.phase === 'ready') return sayReady ? 'ready: press Play (space) or Step (→).' : '';
  if (status.phase === 'paused') return `paused at step ${status.step}: press Play (space) or Step (→)`;
  if (status.phase === 'running') return `playing · step ${status.step}${status.stepsPerSecond > 0 ? ` · ${rate(status.stepsPerSecond)} steps/s` : ''}`;
  if (status.phase === 'done') return `finished at step ${status.step}: Reset (r) to run again`;
  return '';
}

/** Steps per second with sensible digits (0.42, 3.4, 51). */
function rate(x: number): string {
  return x >= 10 ? x.toFixed(0) : x >= 1 ? x.toFixed(1) : x.toFixed(2);
}
