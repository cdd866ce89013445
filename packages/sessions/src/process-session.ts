import type { SessionState, SignalName, StdioMode } from '@procmux/core-types';
import type { OutputBudgetResult, TranscriptExcerptRequest } from '@procmux/transcript';
import type { InputWait } from './input-wait/input-watch.js';
import type { HumanControlLease, HumanControlState } from './session/human-control.js';
import type { SessionWatcher } from './session/session-watch.js';
import type { LogResult, OutputPage, PollResult, SessionMetadata, WaitOutcome } from './types.js';

/**
 * A handle a host can give to a model's tools (the public face of a session, as node-pty
 * exports `IPty`). Reads (output, poll, log, screen, wait, metadata) work for the whole life
 * of the record; writes and signals need a running session. After release() every call but
 * metadata() is ERR_PROCESS_STATE.
 */
export interface ProcessSession {
  readonly id: string;
  readonly owner: string | undefined;
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** SHA-256 of `[command, ...args]`; env never enters it. */
  readonly fingerprint: string;
  /** Whether a PTY was asked for (see stdioMode for what the run resolved to). */
  readonly pty: boolean;
  readonly startedAt: number;
  /** Epoch ms past which the session is expired (its lifetimeMs). */
  readonly expiresAt: number;
  /** cancelOwned() releases this session instead of killing it. */
  readonly releaseOnCancel: boolean;
  readonly state: SessionState;
  readonly stdioMode: StdioMode;
  readonly pid: number | undefined;
  /** Whether poll() returns screen deltas (a PTY session with a terminal screen). */
  readonly emulated: boolean;
  /** Epoch ms of the end, null while the session lives. */
  readonly endedAt: number | null;
  /** True while `starting` or `running`. */
  readonly live: boolean;
  /** The host backend's opaque re-attach reference, when its handle carries one. */
  readonly backendRef: string | undefined;
  /** Whether the terminal emulator is still held (an ended session gives it up). For tests and hosts' metrics. */
  readonly holdsScreen: boolean;
  /**
   * Whether the program is on the terminal's alternate screen as parsed so far (vim, less,
   * htop): it reads keys, not lines. False for pipes and once the screen is given up.
   */
  readonly fullScreen: boolean;
  /**
   * Whether paste() without `bracketed` wraps the text in ESC[200~ … ESC[201~ now: the
   * program's last ESC[?2004h/l (bash, zsh and Python 3.13's REPL ask for it; Python 3.12's
   * and older do not). Always false for pipes.
   */
  readonly bracketedPaste: boolean;
  /**
   * The command line of the program in the foreground of the session's terminal now (argv as
   * Linux's /proc holds it): `['node']` once `node` was typed at a shell's prompt. Undefined for
   * pipes, a host backend's session, off Linux, or when unknown. Read afresh on each access.
   */
  readonly foregroundCommand: readonly string[] | undefined;
  /**
   * Whether resize() can work on this session: a terminal whose backend declared resize (the
   * native backend does; a host backend through `capabilities.resize`). False for pipes, a
   * PTY start that fell back to pipes, and before the process started. Always equal to
   * `'resize' in session`: `session.resize?.(size)` feature-detects as well.
   */
  readonly canResize: boolean;
  /** Columns and rows of the session's terminal now; undefined for a pipe session. */
  readonly terminalSize: { columns: number; rows: number } | undefined;
  /** Who holds the keyboard instead of the model, or null. */
  readonly humanControl: HumanControlState | null;

  /** Raw history (ANSI included) by byte cursor. */
  output(options?: { cursor?: number; maxBytes?: number }): Promise<OutputPage>;
  /**
   * What is new since the previous poll, plus the state. Resolves as soon as output or the
   * exit arrives (listeners, not a tick), or after timeoutMs.
   */
  poll(options?: { timeoutMs?: number }): Promise<PollResult>;
  /**
   * Lines of the transcript: the ANSI-stripped retained history of both streams (a terminal
   * session's too, so nothing past the screen's scrollback is lost). Without offset the last
   * `limit` lines (200 by default); with offset, `limit` lines from there. Lines are numbered
   * from the first ever written; what the history cap dropped is counted, never returned.
   */
  log(options?: { offset?: number; limit?: number }): Promise<LogResult>;
  /**
   * The transcript log() pages, as text chunks in order, never held whole: for a host that
   * wants the head and tail of a huge output.
   */
  transcript(): AsyncGenerator<string>;
  /**
   * The transcript log() pages, cut to a character budget as @procmux/transcript's
   * applyOutputBudget cuts it (head, tail, the error-looking lines between, exact counts),
   * lines numbered as log() numbers them. A pipe session's is read from the log only where
   * the cut shows text or may find an error line: a 50 MB flood's middle is only counted.
   */
  excerpt(request: TranscriptExcerptRequest): Promise<OutputBudgetResult>;
  /**
   * The full rendered terminal (scrollback + screen) of an emulated session; with
   * `{ scrollback: false }` the screen alone, as a person sees it (a full-screen program's).
   */
  screen(options?: { scrollback?: boolean }): Promise<string>;
  /** Waits for the end (or timeoutMs); exitCode is null unless the state is `exited`. */
  wait(options?: { timeoutMs?: number }): Promise<WaitOutcome>;
  metadata(): SessionMetadata;
  /**
   * Whether the program waits for input, checked now (metadata().input is the latest answer,
   * refreshed in the background while someone asks).
   */
  checkInput(): Promise<InputWait | null>;
  /**
   * Keeps the waiting-for-input state fresh (checks on output quiescence and on a short timer)
   * until the returned function is called: for a caller that waits on it.
   */
  watchInput(): () => void;

  /** Writes raw input (at most maxInputBytes; NUL is refused on PTY sessions). */
  input(data: string): Promise<void>;
  /**
   * Pastes text. Bracketing follows the program's last ESC[?2004h/l unless `bracketed` says
   * otherwise; pipe sessions are never bracketed.
   */
  paste(text: string, options?: { bracketed?: boolean }): Promise<void>;
  /** Sends named keys (`C-c`, `Up`, `Enter`, ...), honouring application cursor mode. */
  sendKeys(keys: string | readonly string[]): Promise<void>;
  /** Presses Enter (CR). */
  submit(): Promise<void>;
  /** Closes stdin: EOF for pipes, EOT (Ctrl-D) for a PTY. */
  closeStdin(): Promise<void>;
  /**
   * Resizes the terminal (rate-limited). Present exactly when `canResize` is true: absent on
   * pipe sessions, a PTY start that fell back to pipes, and a backend that cannot resize.
   */
  resize?(size: { columns: number; rows: number }): Promise<void>;
  /** Sends a signal to the process (not the tree; kill() takes the tree). */
  signal(name: SignalName): Promise<void>;
  /** Kills the whole tree and resolves once the session is `killed`. */
  kill(): Promise<WaitOutcome>;
  /** Stops tracking; the process keeps running. Every later call is ERR_PROCESS_STATE. */
  release(): Promise<void>;

  /**
   * Calls `listener` with output as it arrives, resizes, state changes and control changes,
   * until the returned disposer runs. Pair with snapshot(): subscribe first, then keep only
   * output whose `offset` is past the snapshot's.
   */
  watch(listener: SessionWatcher): () => void;
  /**
   * What a terminal attaching now should be given first: the screen as escape sequences
   * (emulated sessions), else the last `maxBytes` (default 1 MiB) of retained output as
   * written (a pipe's bare line feeds included), and the log's byte count it covers. Output
   * with a larger watch() offset comes after it.
   */
  snapshot(options?: { maxBytes?: number }): Promise<{ data: string; offset: number; emulated: boolean }>;
  /**
   * Gives a person the keyboard of this running session until the lease is released or the
   * session ends; meanwhile the model's input is ERR_PROCESS_STATE. Emits
   * `human_control_started` / `human_control_ended` (never the keystrokes). A second
   * takeControl while one is held is ERR_PROCESS_STATE.
   */
  takeControl(options: { holder: string }): Promise<HumanControlLease>;
  /**
   * The retained output as an asciicast v2 file (asciinema's format): arrival times kept,
   * resizes as "r" events, input never.
   */
  asciicast(): Promise<string>;
}
