/**
 * Play, pause and step, once for every kind of session (a lab run, a population of cells): one lock
 * that serializes every operation on the session (a step never interleaves with a reset, a patch or
 * a snapshot), one play loop, one rule for pausing at a step boundary, the session's phase and
 * message, and steps per second. The session says what one step is and what its status holds.
 *
 * States: idle (any phase but 'running') ⇄ playing ('running'). play() starts the loop; pause()
 * lets the step in flight complete (its frame is kept and sent before the returned status), so a
 * later play() continues bit for bit; step(n) pauses, then takes n steps.
 */
import type { Clock } from './clock';

export interface Stepper<S> {
  /** One step (a lab step, a population round), under the lock; false: stop playing. */
  advance(): Promise<boolean>;
  /** Whether play may start now; when not, the session's status has said why. */
  mayPlay(): boolean;
  /** advance() said stop (the loop or step(n) ends): the status to report. */
  stopped(): S;
  /** step(n) took its n steps: the status to report (the session is idle). */
  stepped(): S;
  /** Deliver the frames still queued (the listener then holds every frame up to now). */
  flush(): void;
  /** The transport went to 'running' or 'paused' (a population's live cells follow). */
  moved?(phase: 'running' | 'paused'): void;
}

export interface TransportOptions<S, P extends string> {
  stepper: Stepper<S>;
  /** The session's status as it stands (reads the transport's phase and message). */
  status: () => S;
  /** Where every emitted status goes (the listener). */
  report: (status: S) => void;
  clock: Clock;
  phase: P;
  message: string;
  /** Least time between two status reports while playing. */
  statusEveryMs: number;
}

export class Transport<S, P extends string> {
  phase: P | 'running' | 'paused';
  message: string;
  /** Steps per second, measured while playing (a window of a few seconds). */
  rate = 0;
  /** Steps per second while playing; 0 = as fast as possible. */
  speed = 0;
  private playing = false;
  private loop: Promise<void> | null = null;
  private lock: Promise<unknown> = Promise.resolve();
  private lastStatusAt = 0;

  constructor(private readonly o: TransportOptions<S, P>) {
    this.phase = o.phase;
    this.message = o.message;
  }

  /** Run `fn` alone: after every operation queued before it, before every one queued after. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.lock.then(fn, fn);
    this.lock = next.catch(() => undefined);
    return next;
  }

  /** Set phase and/or message, and report the status. */
  emit(phase?: P | 'running' | 'paused', message?: string): S {
    if (phase !== undefined) this.phase = phase;
    if (message !== undefined) this.message = message;
    const s = this.o.status();
    this.o.report(s);
    return s;
  }

  /** Stop playing now (the device is gone): the loop ends after the step in flight. */
  halt(): void {
    this.playing = false;
  }

  async play(): Promise<void> {
    if (this.playing) return;
    // A pause still finishing its in-flight step: one loop at a time (two would both step, and the
    // pause would then report 'paused' while the second one plays).
    await this.loop;
    if (this.playing || !this.o.stepper.mayPlay()) return;
    this.playing = true;
    this.o.stepper.moved?.('running');
    this.emit('running', '');
    this.loop = this.playLoop();
  }

  private async playLoop(): Promise<void> {
    const { stepper, clock } = this.o;
    let t0 = clock.now();
    let n = 0;
    while (this.playing) {
      const started = clock.now();
      const go = await this.exclusive(() => stepper.advance());
      n++;
      const now = clock.now();
      if (now - t0 > 1000 || n === 1) {
        this.rate = (n / (now - t0)) * 1000;
        if (now - t0 > 3000) {
          t0 = now;
          n = 0;
        }
      }
      if (!go) {
        this.playing = false;
        stepper.stopped();
        break;
      }
      if (clock.now() - this.lastStatusAt > this.o.statusEveryMs) {
        this.lastStatusAt = clock.now();
        this.emit();
      }
      const wait = this.speed > 0 ? 1000 / this.speed - (clock.now() - started) : 0;
      await clock.sleep(Math.max(0, wait));
    }
    stepper.flush();
  }

  /**
   * Stop at the next step boundary. A step in flight completes and is kept (its frame is sent before
   * the returned status), so the run stays exactly where an uninterrupted run would be after that
   * step and a later play() continues it bit for bit. Resolves when the session is idle.
   */
  async pause(): Promise<S> {
    this.playing = false;
    const loop = this.loop;
    await loop;
    if (this.loop === loop) this.loop = null;
    // a play() that came in meanwhile owns the run again: nothing to report as paused
    if (this.playing) return this.o.status();
    this.o.stepper.moved?.('paused');
    if (this.phase === 'running') return this.emit('paused', '');
    return this.o.status();
  }

  /** Pause, then take n steps (paused afterwards, or stopped where a step said stop). */
  async step(n: number): Promise<S> {
    const { stepper } = this.o;
    await this.pause();
    for (let i = 0; i < n; i++) {
      if (!(await this.exclusive(() => stepper.advance()))) {
        stepper.flush(); // the frames before the stop (e.g. the end of the run) are kept
        return stepper.stopped();
      }
    }
    stepper.flush();
    return stepper.stepped();
  }
}
