// The state of one session, shared by the files that act on it (lifecycle, input, control,
// reads, waiting, watching). Internal: hosts see the ProcessSession interface (handle.ts).
import type { LeftoverProcess, ManagedRun, SessionState, SignalName, StdioMode } from '@procmux/core-types';
import { monoNow } from '@procmux/registry';
import type { SessionSandbox } from '@procmux/sandbox-linux';
import type { TerminalScreen } from '@procmux/screen';
import { type OutputLog, type ScreenGate, SessionTranscript } from '@procmux/transcript';
import type { BackendAdapter } from '../backends/backend-adapter.js';
import type { Contained } from '../backends/containment.js';
import { foregroundProgram } from '../input-wait/foreground-program.js';
import type { InputWatch } from '../input-wait/input-watch.js';
import type { SessionMetadata } from '../types.js';
import type { SessionContext } from './context.js';
import type { HumanControlState } from './human-control.js';
import { SessionWatchers } from './session-watch.js';
import { PollWaiters } from './waiting.js';

export interface SessionInit {
  id: string;
  owner: string | undefined;
  command: string;
  args: readonly string[];
  /** Whether `command` runs through the platform shell (else it is the executable). */
  shell: boolean;
  cwd: string;
  fingerprint: string;
  pty: boolean;
  stdin: 'open' | 'closed' | 'terminal';
  startedAt: number;
  expiresAt: number;
  releaseOnCancel: boolean;
  log: OutputLog;
  screen: TerminalScreen | undefined;
  backend: SessionMetadata['backend'];
  /** Shuts the screen off from the run (a PTY start that fell back to pipes). */
  screenGate?: ScreenGate;
  /** The terminal's size at the start (PTY sessions). */
  terminal?: { columns: number; rows: number } | undefined;
  /**
   * Byte of the process's output where this session's log starts (0: its first byte; a
   * re-attached session's backend may replay from elsewhere); undefined when not known.
   */
  outputBase?: number | undefined;
  /** A re-attached session replaying output an earlier host's poll already returned. */
  replaying?: boolean;
  /** What the durable record says a poll returned already (a re-attached session). */
  deliveredBytes?: number;
}

/** A person's hold on the keyboard, with the function that ends it. */
export type ControlHold = HumanControlState & { end(reason: string): void };

export class SessionCore {
  readonly id: string;
  readonly owner: string | undefined;
  readonly command: string;
  readonly args: readonly string[];
  readonly shell: boolean;
  readonly cwd: string;
  readonly fingerprint: string;
  readonly pty: boolean;
  readonly startedAt: number;
  readonly expiresAt: number;
  /** expiresAt on the monotonic clock (see mono-clock.ts). */
  readonly expiresMono: number;
  readonly releaseOnCancel: boolean;
  readonly backend: SessionMetadata['backend'];
  readonly ctx: SessionContext;
  /** The text a model reads of this session: log, line index, live text, recording. */
  readonly transcript: SessionTranscript;
  readonly initialTerminal: { columns: number; rows: number } | undefined;

  state: SessionState = 'starting';
  stdioMode: StdioMode;
  run: ManagedRun | undefined;
  adapter: BackendAdapter | undefined;
  backendMetadata: Record<string, unknown> | undefined;
  /** The OS sandbox the process runs in, if any. */
  sandbox: SessionSandbox | undefined;
  /** The shell program that ran a command string (`bash`, `sh`, ...); null without one. */
  shellName: string | null = null;
  exitCode: number | null = null;
  signal: SignalName | null = null;
  endedAt: number | null = null;
  /** endedAt on the monotonic clock, for the sweep's TTL. */
  endedMono: number | null = null;
  endReason: string | null = null;
  stdinClosed: boolean;
  /** Output arrived that no poll has returned yet. */
  pending = false;
  /**
   * Characters at the start of each stream's current line that stood there when input was last
   * written (a prompt just answered): not the program's reply. 0 once a line break follows.
   */
  staleChars = { stdout: 0, stderr: 0 };
  /** A terminal's polls that brought stdout, counted (PollResult.stdoutRead). */
  stdoutReads = 0;
  resizes: number[] = [];
  /** Set by kill() and expiry, so the exit that follows is recorded as what was asked. */
  forced: 'killed' | 'expired' | undefined;
  persisted: Promise<void> = Promise.resolve();
  /** The live terminal emulator; disposed once the session ended and its final screen was taken. */
  screen: TerminalScreen | undefined;
  emulated: boolean;
  fellBack = false;
  /**
   * An ended session's screen as text: what poll() has not returned yet (and the lines before
   * it that it redraws), and the whole render.
   */
  finalScreen: { delta: string; full: string; screen: string; redrawn: number } | undefined;
  retiring: Promise<void> | undefined;
  terminal: { columns: number; rows: number } | undefined;
  control: ControlHold | undefined;
  /** Output bytes (from the process's first byte) a poll returned, and its throttled durable write. */
  readonly delivered: { bytes: number; writtenAt: number; timer: NodeJS.Timeout | undefined };
  readonly outputBase: number | undefined;
  /** Polls return nothing new until the replay of already-delivered output is behind (see durable/replay.ts). */
  replaying: boolean;
  /** Resolves once `replaying` is false. */
  readonly replayed: Promise<void>;
  resolveReplayed!: () => void;
  readonly watchers = new SessionWatchers();
  readonly waiters = new PollWaiters();
  readonly input: InputWatch;
  /** Resolves once the session ended and its durable record says so. */
  readonly settled: Promise<void>;
  resolveSettled!: () => void;
  /** How the tree is held (see SessionMetadata.containment) and, with a cgroup, its limits and usage. */
  /** What of the tree outlived its process (endLeftovers), set as the run settles. */
  leftovers: LeftoverProcess[] | undefined = undefined;
  contained: Contained = { containment: 'marker', cgroup: undefined, limits: {} };

  /**
   * `watchInput` builds the session's input watch around it: the files that act on the core
   * (input-state.ts) import this one, so it is handed in rather than imported (no circle).
   */
  constructor(init: SessionInit, ctx: SessionContext, watchInput: (core: SessionCore) => InputWatch) {
    this.id = init.id;
    this.owner = init.owner;
    this.command = init.command;
    this.args = init.args;
    this.cwd = init.cwd;
    this.fingerprint = init.fingerprint;
    this.shell = init.shell;
    this.pty = init.pty;
    this.startedAt = init.startedAt;
    this.expiresAt = init.expiresAt;
    // What is left of the lifetime now, by the wall clock (a re-attached session's record
    // knows no other), counted from here on the monotonic one.
    this.expiresMono = monoNow() + (init.expiresAt - Date.now());
    this.releaseOnCancel = init.releaseOnCancel;
    this.stdioMode = init.pty ? 'pty' : 'pipe';
    this.stdinClosed = init.stdin === 'closed';
    this.screen = init.screen;
    this.emulated = init.screen !== undefined;
    this.backend = init.backend;
    this.ctx = ctx;
    this.terminal = init.terminal ? { ...init.terminal } : undefined;
    this.initialTerminal = this.terminal;
    this.outputBase = 'outputBase' in init ? init.outputBase : 0;
    this.delivered = { bytes: init.deliveredBytes ?? 0, writtenAt: 0, timer: undefined };
    this.replaying = init.replaying === true;
    this.replayed = new Promise((resolve) => {
      this.resolveReplayed = resolve;
    });
    if (!this.replaying) this.resolveReplayed();
    this.transcript = new SessionTranscript({
      log: init.log,
      terminal: init.pty ? init.terminal : undefined,
      foreground: () => (this.adapter ? undefined : foregroundProgram(this.pid)),
      gate: init.screenGate,
    });
    this.input = watchInput(this);
    this.settled = new Promise((resolve) => {
      this.resolveSettled = resolve;
    });
  }

  get live(): boolean {
    return this.state === 'starting' || this.state === 'running';
  }

  get pid(): number | undefined {
    return this.run?.pid;
  }
}
