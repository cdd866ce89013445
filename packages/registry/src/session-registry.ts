import { randomBytes } from 'node:crypto';
import { stripAnsi } from '@procmux/ansi';
import {
  DEFAULT_FINISHED_TTL_MS,
  describe,
  type Limit,
  ProcmuxError,
  resolveLimit,
} from '@procmux/core-types';
import type { ScreenLike } from '@procmux/screen';
import { type OutputDrain, OutputLog } from './output-log.js';
import { finishedSnapshot } from './snapshot.js';
import type { SessionExit } from './status.js';
import type { OutputStream } from './stream-runs.js';
import { Sweeper, systemTimers, type Timers } from './sweeper.js';
import type { FinishedSession, RunningSession, SessionEntry, SessionInit, SessionMeta } from './types.js';
import { assertExit, invalidOption } from './validate.js';

/** How long finished sessions are kept: 30 min by default, at most 24 h. */
export const FINISHED_TTL_MS_LIMIT: Limit = { default: DEFAULT_FINISHED_TTL_MS, hard: 24 * 60 * 60 * 1000 };

/** The sweeper never runs more often than this. */
export const MIN_SWEEP_INTERVAL_MS = 30_000;

export interface SessionRegistryOptions {
  /** How long a finished session is kept, in ms (default 30 min, 1 ms to 24 h). */
  ttlMs?: number;
  /** Clock in epoch milliseconds (default Date.now). */
  now?: () => number;
  /** Timer functions for the sweeper (default the global ones). */
  timers?: Timers;
}

interface RunningRecord<M> {
  status: 'running';
  id: string;
  command: string;
  args: readonly string[] | undefined;
  cwd: string | undefined;
  startedAt: number;
  backgrounded: boolean;
  log: OutputLog;
  screen: ScreenLike | undefined;
  meta: M;
}

/**
 * Running and finished sessions. A running session owns its OutputLog and, for an emulated
 * terminal, its screen; markExited() turns it into a plain-data FinishedSession kept for
 * `ttlMs`. A sweeper prunes expired snapshots; it runs only while the registry holds a
 * session, so an empty registry has no timer. Nothing starts at construction.
 *
 * @example
 * const registry = new SessionRegistry();
 * registry.add({ id: registry.createId(), command: 'npm test' });
 */
export class SessionRegistry<M = SessionMeta> {
  readonly ttlMs: number;
  /** max(30 s, ttlMs / 6). */
  readonly sweepIntervalMs: number;

  private readonly now: () => number;
  private readonly running = new Map<string, RunningRecord<M>>();
  private readonly finished = new Map<string, FinishedSession<M>>();
  private readonly exiting = new Map<string, Promise<FinishedSession<M>>>();
  private readonly released = new WeakSet<ScreenLike>();
  private readonly sweeper: Sweeper;
  private disposed = false;

  constructor(options: SessionRegistryOptions = {}) {
    this.ttlMs = resolveLimit('ttlMs', options.ttlMs, FINISHED_TTL_MS_LIMIT);
    if (options.now !== undefined && typeof options.now !== 'function') {
      throw invalidOption(
        'now',
        `now must be a function returning epoch milliseconds (got ${describe(options.now)})`,
      );
    }
    const timers = options.timers ?? systemTimers;
    if (typeof timers.setTimeout !== 'function' || typeof timers.clearTimeout !== 'function') {
      throw invalidOption('timers', 'timers must have setTimeout and clearTimeout functions');
    }
    this.now = options.now ?? (() => Date.now());
    this.sweepIntervalMs = Math.max(MIN_SWEEP_INTERVAL_MS, Math.floor(this.ttlMs / 6));
    this.sweeper = new Sweeper(this.sweepIntervalMs, timers, () => {
      this.prune();
      return this.size > 0;
    });
  }

  /** Running plus finished sessions held (expired ones count until pruned). */
  get size(): number {
    return this.running.size + this.finished.size;
  }

  /** True while the sweeper has a timer scheduled. */
  get sweeping(): boolean {
    return this.sweeper.running;
  }

  /** A fresh 8-hex-digit id no held session uses. */
  createId(): string {
    for (;;) {
      const id = randomBytes(4).toString('hex');
      if (!this.running.has(id) && !this.finished.has(id)) return id;
    }
  }

  /**
   * Registers a running session and starts the sweeper if it was idle.
   *
   * @throws ProcmuxError ERR_INVALID_OPTION for a missing or taken id or a missing command;
   * ERR_PROCESS_STATE after dispose().
   */
  add(init: SessionInit<M>): RunningSession<M> {
    this.assertOpen();
    if (typeof init?.id !== 'string' || init.id.length === 0) {
      throw invalidOption('id', `id must be a non-empty string (got ${describe(init?.id)})`);
    }
    if (this.running.has(init.id) || this.finished.has(init.id)) {
      throw invalidOption(
        'id',
        `id ${JSON.stringify(init.id)} is already in use by a session in this registry`,
      );
    }
    if (typeof init.command !== 'string') {
      throw invalidOption('command', `command must be a string (got ${describe(init.command)})`);
    }
    const record: RunningRecord<M> = {
      status: 'running',
      id: init.id,
      command: init.command,
      args: init.args === undefined ? undefined : [...init.args],
      cwd: init.cwd,
      startedAt: init.startedAt ?? this.now(),
      backgrounded: init.backgrounded ?? false,
      log: init.log ?? new OutputLog(),
      screen: init.screen,
      meta: init.meta ?? ({} as M),
    };
    this.running.set(record.id, record);
    this.sweeper.start();
    return record;
  }

  /** The running session or the unexpired finished snapshot with this id. */
  get(id: string): SessionEntry<M> | undefined {
    const running = this.running.get(id);
    if (running !== undefined) return running;
    const finished = this.finished.get(id);
    if (finished === undefined) return undefined;
    if (this.expired(finished, this.now())) {
      this.finished.delete(id);
      if (this.size === 0) this.sweeper.stop();
      return undefined;
    }
    return finished;
  }

  /** Running sessions, then unexpired finished ones, each in the order they were added/finished. */
  list(): SessionEntry<M>[] {
    this.prune();
    if (this.size === 0) this.sweeper.stop();
    return [...this.running.values(), ...this.finished.values()];
  }

  /** Marks a running session as handed off for polling. */
  markBackgrounded(session: SessionRef): RunningSession<M> {
    const record = this.requireRunning(idOf(session));
    record.backgrounded = true;
    return record;
  }

  /** Appends output to the session's log, then feeds its screen if it has one. */
  append(session: SessionRef, stream: OutputStream, chunk: string): void {
    const record = this.requireRunning(idOf(session));
    record.log.append(stream, chunk);
    // The log is written first, so a screen that throws cannot cost the raw output. A screen
    // already released (the session is finishing) has rendered its transcript.
    const screen = record.screen;
    if (screen !== undefined && chunk.length > 0 && !this.released.has(screen)) screen.feed(chunk);
  }

  /** What the session wrote since its previous drain (see OutputLog.drain). */
  drain(session: SessionRef): OutputDrain {
    return this.requireRunning(idOf(session)).log.drain();
  }

  /**
   * Ends a running session: renders its history (the screen's full transcript when it has
   * a screen, else the ANSI-stripped retained output), disposes the screen and replaces the
   * record with a FinishedSession kept for ttlMs. A second call while the first is still
   * rendering returns the same snapshot (the first exit wins).
   *
   * @throws ProcmuxError ERR_PROCESS_NOT_FOUND for an unknown id, ERR_PROCESS_STATE for a
   * session already finished, ERR_INVALID_OPTION for a malformed exit (as rejections).
   */
  markExited(session: SessionRef, exit: SessionExit): Promise<FinishedSession<M>> {
    const id = idOf(session);
    const pending = this.exiting.get(id);
    if (pending !== undefined) return pending;
    let record: RunningRecord<M>;
    let endedAt: number;
    try {
      record = this.requireRunning(id);
      assertExit(exit);
      endedAt = exit.endedAt ?? this.now();
    } catch (error) {
      return Promise.reject(error);
    }
    const finishing = this.finish(record, exit, endedAt);
    this.exiting.set(id, finishing);
    return finishing;
  }

  /** Forgets a session, running or finished (disposing a running one's screen). */
  remove(session: SessionRef): boolean {
    const id = idOf(session);
    const record = this.running.get(id);
    const removed = this.running.delete(id) || this.finished.delete(id);
    if (record !== undefined) this.releaseScreen(record.screen);
    if (this.size === 0) this.sweeper.stop();
    return removed;
  }

  /** Stops the sweeper, disposes every screen and forgets every session. Idempotent. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.sweeper.stop();
    for (const record of this.running.values()) this.releaseScreen(record.screen);
    this.running.clear();
    this.finished.clear();
  }

  private async finish(
    record: RunningRecord<M>,
    exit: SessionExit,
    endedAt: number,
  ): Promise<FinishedSession<M>> {
    try {
      const history = await this.renderHistory(record);
      const snapshot = finishedSnapshot(record, exit, endedAt, history);
      // Removed or disposed while rendering: hand back the snapshot but keep nothing.
      if (this.running.get(record.id) === record) {
        this.running.delete(record.id);
        this.finished.set(record.id, snapshot);
      }
      return snapshot;
    } finally {
      this.exiting.delete(record.id);
    }
  }

  // The rendered transcript is what a person saw; if the screen cannot render (disposed
  // meanwhile, a backend fault), the raw log is still there, so fall back to it.
  private async renderHistory(record: RunningRecord<M>): Promise<string> {
    const screen = record.screen;
    if (screen === undefined || this.released.has(screen)) return stripAnsi(record.log.text());
    try {
      return await screen.renderFull();
    } catch {
      return stripAnsi(record.log.text());
    } finally {
      this.releaseScreen(screen);
    }
  }

  private releaseScreen(screen: ScreenLike | undefined): void {
    if (screen === undefined || this.released.has(screen)) return;
    this.released.add(screen);
    screen.dispose();
  }

  private prune(): void {
    const now = this.now();
    for (const [id, snapshot] of this.finished) {
      if (this.expired(snapshot, now)) this.finished.delete(id);
    }
  }

  private expired(snapshot: FinishedSession<M>, now: number): boolean {
    return now - snapshot.endedAt >= this.ttlMs;
  }

  private requireRunning(id: string): RunningRecord<M> {
    this.assertOpen();
    const record = this.running.get(id);
    if (record !== undefined) return record;
    if (this.get(id) !== undefined) {
      throw new ProcmuxError('ERR_PROCESS_STATE', `session ${JSON.stringify(id)} has already finished`, {
        details: { sessionId: id },
      });
    }
    throw new ProcmuxError('ERR_PROCESS_NOT_FOUND', `no session with id ${describe(id)}`, {
      details: { sessionId: id },
    });
  }

  private assertOpen(): void {
    if (this.disposed) throw new ProcmuxError('ERR_PROCESS_STATE', 'the session registry has been disposed');
  }
}

/** A session by id, or the entry itself (anything carrying its id). */
export type SessionRef = string | { readonly id: string };

function idOf(session: SessionRef): string {
  return typeof session === 'string' ? session : session.id;
}
