import type { SignalName, TerminationReason } from '@procmux/core-types';
import type { ScreenLike } from '@procmux/screen';
import type { OutputLog } from './output-log.js';
import type { FinishedStatus } from './status.js';

/** Free-form data an upper layer keeps with a session (owner, pid, fingerprint, ...). */
export type SessionMeta = Readonly<Record<string, unknown>>;

/** What add() takes to register a running session. */
export interface SessionInit<M = SessionMeta> {
  /** Unique among the registry's running and finished sessions (see createId()). */
  id: string;
  command: string;
  args?: readonly string[];
  cwd?: string;
  /** Epoch milliseconds (default: the registry's clock at add). */
  startedAt?: number;
  backgrounded?: boolean;
  /** The session's output log (default: a new OutputLog with default caps). */
  log?: OutputLog;
  /** A terminal screen fed every chunk; the registry disposes it when the session ends. */
  screen?: ScreenLike;
  meta?: M;
}

/** A session whose process has not been marked exited. */
export interface RunningSession<M = SessionMeta> {
  readonly status: 'running';
  readonly id: string;
  readonly command: string;
  readonly args: readonly string[] | undefined;
  readonly cwd: string | undefined;
  readonly startedAt: number;
  /** Handed off for polling (set by markBackgrounded). */
  readonly backgrounded: boolean;
  readonly log: OutputLog;
  readonly screen: ScreenLike | undefined;
  readonly meta: M;
}

/**
 * What is kept of a session after its process ended: plain data only. No stdin, no screen,
 * no undrained output; `history` is the rendered transcript for an emulated session, else
 * the ANSI-stripped retained output.
 */
export interface FinishedSession<M = SessionMeta> {
  readonly status: FinishedStatus;
  readonly id: string;
  readonly command: string;
  readonly args: readonly string[] | undefined;
  readonly cwd: string | undefined;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly backgrounded: boolean;
  /** As the exit reported it; never invented. */
  readonly exitCode: number | null;
  readonly signal: SignalName | null;
  readonly reason: TerminationReason | undefined;
  readonly history: string;
  /** The last 2,000 characters of `history`. */
  readonly tail: string;
  /** True when any output cap discarded data. */
  readonly truncated: boolean;
  /** Every byte the process wrote, including discarded ones. */
  readonly totalBytes: number;
  readonly meta: M;
}

/** A session as get() and list() return it: running or finished. */
export type SessionEntry<M = SessionMeta> = RunningSession<M> | FinishedSession<M>;
