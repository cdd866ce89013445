import { constants } from 'node:os';
import {
  isTerminalState,
  type ManagedRun,
  type ProcessEventType,
  ProcmuxError,
  type RunExit,
  type SessionState,
  type SignalName,
  type StdioMode,
} from '@procmux/core-types';
import { encodeKeySequence, encodePaste } from '@procmux/key-encoder';
import type { OutputLog } from '@procmux/registry';
import type { TerminalScreen } from '@procmux/screen';
import { asciicast } from './asciicast.js';
import type { BackendAdapter } from './backend-adapter.js';
import { integerOption } from './checks.js';
import type { SessionContext } from './context.js';
import type { RecordSource } from './durable/record.js';
import { hangUp } from './hang-up.js';
import {
  type HumanControlLease,
  type HumanControlState,
  holderName,
  humanControlError,
} from './human-control.js';
import { type InputWait, InputWatch } from './input/input-watch.js';
import { defaultInputDetector, promptFromTail } from './input/session-input.js';
import { LiveText } from './live-text.js';
import { OutputTimeline } from './output-timeline.js';
import { enforcePolicy, type PolicyAction } from './policy.js';
import type { ScreenGate } from './screen-gate.js';
import { type SessionWatcher, SessionWatchers } from './session-watch.js';
import { transcriptChunks } from './transcript.js';
import { TranscriptIndex } from './transcript-index.js';
import type { LogResult, OutputPage, PollResult, SessionMetadata, WaitOutcome } from './types.js';

export interface SessionInit {
  id: string;
  owner: string | undefined;
  command: string;
  args: readonly string[];
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
}

type Stream = 'stdout' | 'stderr';

/** How long a hung-up terminal session gets to end before the tree kill (SIGTERM, then SIGKILL). */
const HANG_UP_WAIT_MS = 500;

/** Output a pipe session's snapshot() starts with by default: the tail a viewer scrolls back through. */
const SNAPSHOT_BYTES = 1024 * 1024;

/**
 * A handle a host can give to a model's tools. Reads (output, poll, log, screen, wait,
 * metadata) work for the whole life of the record; writes and signals need a running session.
 * After release() every call but metadata() is ERR_PROCESS_STATE.
 */
export class ProcessSession {
  readonly id: string;
  readonly owner: string | undefined;
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly fingerprint: string;
  readonly pty: boolean;
  readonly startedAt: number;
  readonly expiresAt: number;
  readonly releaseOnCancel: boolean;

  #state: SessionState = 'starting';
  #stdioMode: StdioMode;
  #run: ManagedRun | undefined;
  #adapter: BackendAdapter | undefined;
  #backendMetadata: Record<string, unknown> | undefined;
  #exitCode: number | null = null;
  #signal: SignalName | null = null;
  #endedAt: number | null = null;
  #endReason: string | null = null;
  #stdinClosed: boolean;
  #pending = false;
  #waiters = new Set<() => void>();
  #resizes: number[] = [];
  #forced: 'killed' | 'expired' | undefined;
  #settled: Promise<void>;
  #resolveSettled!: () => void;
  #persisted: Promise<void> = Promise.resolve();
  #text = { stdout: new LiveText(), stderr: new LiveText() };
  readonly #log: OutputLog;
  /** The live terminal emulator; disposed once the session ended and its final screen was taken. */
  #screen: TerminalScreen | undefined;
  #emulated: boolean;
  readonly #screenGate: ScreenGate | undefined;
  #fellBack = false;
  /** An ended session's screen as text: what poll() has not returned yet, and the whole render. */
  #finalScreen: { delta: string; full: string } | undefined;
  #retiring: Promise<void> | undefined;
  readonly #backend: SessionMetadata['backend'];
  readonly #ctx: SessionContext;
  readonly #timeline = new OutputTimeline();
  readonly #index = new TranscriptIndex();
  readonly #watchers = new SessionWatchers();
  #terminal: { columns: number; rows: number } | undefined;
  readonly #initialTerminal: { columns: number; rows: number } | undefined;
  #control: (HumanControlState & { end(reason: string): void }) | undefined;
  readonly #input: InputWatch;

  constructor(init: SessionInit, ctx: SessionContext) {
    this.id = init.id;
    this.owner = init.owner;
    this.command = init.command;
    this.args = init.args;
    this.cwd = init.cwd;
    this.fingerprint = init.fingerprint;
    this.pty = init.pty;
    this.startedAt = init.startedAt;
    this.expiresAt = init.expiresAt;
    this.releaseOnCancel = init.releaseOnCancel;
    this.#stdioMode = init.pty ? 'pty' : 'pipe';
    this.#stdinClosed = init.stdin === 'closed';
    this.#log = init.log;
    this.#screen = init.screen;
    this.#emulated = init.screen !== undefined;
    this.#screenGate = init.screenGate;
    this.#backend = init.backend;
    this.#ctx = ctx;
    this.#terminal = init.terminal ? { ...init.terminal } : undefined;
    this.#initialTerminal = this.#terminal;
    this.#input = new InputWatch(
      ctx.inputDetector ?? defaultInputDetector(),
      () => this.#inputFacts(),
      (state, previous) => this.#inputChanged(state, previous),
    );
    this.#settled = new Promise((resolve) => {
      this.#resolveSettled = resolve;
    });
  }

  get state(): SessionState {
    return this.#state;
  }

  get stdioMode(): StdioMode {
    return this.#stdioMode;
  }

  get pid(): number | undefined {
    return this.#run?.pid;
  }

  /** Whether poll() returns screen deltas (a PTY session with a terminal screen). */
  get emulated(): boolean {
    return this.#emulated;
  }

  /** Epoch ms of the end, null while the session lives. */
  get endedAt(): number | null {
    return this.#endedAt;
  }

  get live(): boolean {
    return this.#state === 'starting' || this.#state === 'running';
  }

  // ---- wiring used by the registry ----------------------------------------------------

  /** Output from the supervisor (already free of answered terminal queries). */
  onOutput(stream: Stream, chunk: string): void {
    if (this.#state === 'released') return;
    const before = this.#log.totalBytes;
    this.#timeline.mark(before, Date.now());
    this.#log.append(stream, chunk);
    this.#index.add(chunk, before);
    if (this.#watchers.size > 0)
      this.#watchers.emit({ type: 'output', data: chunk, offset: this.#log.totalBytes });
    this.#pending = true;
    this.#input.noteOutput();
    // Checked here: a flood calls this per chunk, mostly with no poll waiting.
    if (this.#waiters.size > 0) this.#wake();
  }

  attach(run: ManagedRun, adapter: BackendAdapter | undefined, metadata?: Record<string, unknown>): void {
    this.#run = run;
    this.#adapter = adapter;
    this.#backendMetadata = metadata;
    this.#stdioMode = run.stdioMode;
    if (this.pty && run.stdioMode === 'pipe') this.#fallBack();
    if (this.#state === 'starting') this.#state = 'running';
    this.#persist(undefined);
    run.wait().then(
      (exit) => {
        this.#finish(exit);
        void this.#retireScreen();
      },
      () => {
        this.#finish(undefined);
        void this.#retireScreen();
      },
    );
  }

  /**
   * A PTY start that ran on pipes: from here it is a pipe session (no screen, poll and log
   * read the streams as written) and metadata says it fell back.
   */
  #fallBack(): void {
    this.#fellBack = true;
    this.#screenGate?.close();
    this.#screen?.dispose();
    this.#screen = undefined;
    this.#emulated = false;
    this.#terminal = undefined;
  }

  /** Ends the record without a process (failed attach, backend lost before start). */
  failUnknown(reason: string): void {
    if (isTerminalState(this.#state)) return;
    this.#settle('unknown', null, null, reason);
  }

  /** Kills the process and records `expired`. */
  async expire(): Promise<void> {
    if (!this.live) return;
    this.#forced = 'expired';
    this.#run?.cancel('manual-cancel');
    await this.#settled;
  }

  /** Registry's markUnknown/reconcile: terminal, never an invented exit code. */
  markUnknown(reason = 'marked unknown by the host'): void {
    if (!this.live) return;
    this.#settle('unknown', null, null, reason);
  }

  /** The run, while its process may still be alive (dispose kills those). */
  get activeRun(): ManagedRun | undefined {
    return this.#run;
  }

  /** The host backend's opaque re-attach reference, when its handle carries one. */
  get backendRef(): string | undefined {
    return this.#adapter?.handle.ref;
  }

  /** What the durable record of this session is built from, as it is now. */
  recordSource(reason?: string): RecordSource {
    return {
      // Internal: a durable write is not someone asking, so it starts no input checks.
      metadata: this.#metadata(false),
      backendRef: this.backendRef,
      releaseOnCancel: this.releaseOnCancel,
      expiresAt: this.expiresAt,
      reason,
    };
  }

  /** Whether the terminal emulator is still held (an ended session gives it up). For tests and hosts' metrics. */
  get holdsScreen(): boolean {
    return this.#screen !== undefined;
  }

  /** Settles once the latest durable write of this session is done (at once without durability). */
  get persisted(): Promise<void> {
    return this.#persisted;
  }

  // ---- reads ----------------------------------------------------------------------------

  /** Raw history (ANSI included) by byte cursor. */
  async output(options: { cursor?: number; maxBytes?: number } = {}): Promise<OutputPage> {
    await this.#access();
    const maxBytes = integerOption(
      'maxBytes',
      options.maxBytes,
      this.#ctx.limits.maxOutputChunkBytes,
      1,
      this.#ctx.limits.maxOutputChunkBytes,
    );
    const cursor = integerOption('cursor', options.cursor, 0, 0);
    return this.#log.read({ cursor, maxBytes });
  }

  /**
   * What is new since the previous poll, plus the state. Resolves as soon as output or the
   * exit arrives (listeners, not a tick), or after timeoutMs.
   */
  async poll(options: { timeoutMs?: number } = {}): Promise<PollResult> {
    await this.#access();
    const timeoutMs = integerOption('timeoutMs', options.timeoutMs, 0, 0, this.#ctx.limits.maxLifetimeMs);
    if (!this.#pending && this.live && timeoutMs > 0) {
      // A poll wants to hear when the program starts waiting for input, so checks run meanwhile.
      const release = this.#input.want();
      try {
        await this.#nextEvent(timeoutMs);
      } finally {
        release();
      }
    }
    return this.#collect();
  }

  /**
   * Lines of the transcript: the ANSI-stripped retained history of both streams (a terminal
   * session's too, so nothing past the screen's scrollback is lost). Without offset the last
   * `limit` lines (200 by default); with offset, `limit` lines from there. Lines are numbered
   * from the first ever written; what the history cap dropped is counted, never returned.
   */
  async log(options: { offset?: number; limit?: number } = {}): Promise<LogResult> {
    await this.#access();
    return this.#index.page(this.#log, options, this.#ctx.limits.maxOutputChunkBytes);
  }

  /**
   * The transcript log() pages (the rendered screen for emulated sessions, else the
   * ANSI-stripped history of both streams), as text chunks in order, never held whole: for a
   * host that wants the head and tail of a huge output.
   */
  async *transcript(): AsyncGenerator<string> {
    await this.#access();
    yield* this.#chunks();
  }

  #chunks(): AsyncGenerator<string> {
    return transcriptChunks(this.#log, undefined, this.#ctx.limits.maxOutputChunkBytes);
  }

  /** The full render: from the live screen, or the final one an ended session kept. */
  async #renderFull(): Promise<string> {
    await this.#retiring;
    if (this.#finalScreen) return this.#finalScreen.full;
    return this.#screen!.renderFull();
  }

  /**
   * Takes the final screen (what poll has not returned yet, and the whole render) and
   * disposes the emulator: an ended session keeps text, not a terminal (~270 KiB each).
   */
  #retireScreen(): Promise<void> {
    const screen = this.#screen;
    if (!screen) return Promise.resolve();
    this.#retiring ??= (async () => {
      try {
        const delta = await screen.renderNew();
        const full = await screen.renderFull();
        this.#finalScreen = { delta, full };
      } finally {
        this.#screen = undefined;
        screen.dispose();
      }
    })().catch(() => {});
    return this.#retiring;
  }

  /** The full rendered terminal (scrollback + screen) of an emulated session. */
  async screen(): Promise<string> {
    await this.#access();
    if (!this.#emulated) {
      throw new ProcmuxError(
        'ERR_PROCESS_UNSUPPORTED',
        'screen() needs a PTY session with a terminal screen',
      );
    }
    return this.#renderFull();
  }

  /** Waits for the end (or timeoutMs); exitCode is null unless the state is `exited`. */
  async wait(options: { timeoutMs?: number } = {}): Promise<WaitOutcome> {
    await this.#access();
    const timeoutMs =
      options.timeoutMs === undefined ? undefined : integerOption('timeoutMs', options.timeoutMs, 0, 0);
    if (this.live) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.#settled,
        ...(timeoutMs === undefined ? [] : [new Promise<void>((r) => (timer = setTimeout(r, timeoutMs)))]),
      ]);
      clearTimeout(timer);
    }
    // An ended session's durable record is written before wait() reports the end.
    if (!this.live) await this.#settled;
    if (this.#adapter?.lost && this.#state === 'unknown') {
      throw new ProcmuxError(
        'ERR_PROCESS_PTY_BACKEND',
        'the process backend lost this session; its outcome is unknown',
        {
          details: { sessionId: this.id },
        },
      );
    }
    return { exitCode: this.#exitCode, signal: this.#signal, state: this.#state };
  }

  metadata(): SessionMetadata {
    return this.#metadata(true);
  }

  #metadata(ask: boolean): SessionMetadata {
    return {
      id: this.id,
      owner: this.owner,
      command: this.command,
      args: [...this.args],
      cwd: this.cwd,
      fingerprint: this.fingerprint,
      state: this.#state,
      pid: this.pid,
      startedAt: this.startedAt,
      endedAt: this.#endedAt,
      exitCode: this.#exitCode,
      signal: this.#signal,
      stdioMode: this.#stdioMode,
      totalBytes: this.#log.totalBytes,
      retainedBytes: this.#log.retainedBytes,
      droppedBytes: this.#log.firstRetainedOffset,
      truncated: this.#log.truncated,
      pty: this.pty,
      ptyFellBack: this.#fellBack,
      emulated: this.emulated,
      backend: this.#backend,
      endReason: this.#endReason,
      input: ask ? this.#askInput() : this.#input.state,
      ...(this.#backendMetadata ? { backendMetadata: this.#backendMetadata } : {}),
    };
  }

  /**
   * Whether the program waits for input, checked now (metadata().input is the latest answer,
   * refreshed in the background while someone asks).
   */
  async checkInput(): Promise<InputWait | null> {
    if (!this.live) return null;
    return this.#input.check();
  }

  /**
   * Keeps the waiting-for-input state fresh (checks on output quiescence and on a short timer)
   * until the returned function is called: for a caller that waits on it.
   */
  watchInput(): () => void {
    return this.#input.want();
  }

  #askInput(): InputWait | null {
    if (this.live) this.#input.ask();
    return this.#input.state;
  }

  #inputFacts(): { rootPid: number | undefined; kind: 'pty' | 'pipe'; prompt: string } | undefined {
    if (!this.live || !this.#run) return undefined;
    const kind = this.#stdioMode === 'pty' ? 'pty' : 'pipe';
    if (kind === 'pipe' && (this.#stdinClosed || !this.#run.stdin)) return undefined;
    // Only a native process's pid names a local process the kernel can describe.
    const rootPid = this.#backend === 'native' ? this.pid : undefined;
    return { rootPid, kind, prompt: promptFromTail(this.#log.tail) };
  }

  #inputChanged(state: InputWait | null, previous: InputWait | null): void {
    this.#watchers.emit({ type: 'input', input: state });
    if (state === null || previous !== null) return;
    this.#ctx.emit({
      type: 'process_waiting_input',
      sessionId: this.id,
      owner: this.owner,
      fingerprint: this.fingerprint,
      state: this.#state,
      at: state.since,
      startedAt: this.startedAt,
      endedAt: this.#endedAt,
      pid: this.pid,
      stdioMode: this.#stdioMode,
      exitCode: this.#exitCode,
      signal: this.#signal,
      input: state,
    });
    // poll() returns early when the program starts waiting.
    this.#wake();
  }

  // ---- writes ---------------------------------------------------------------------------

  /** Writes raw input (at most maxInputBytes; NUL is refused on PTY sessions). */
  async input(data: string): Promise<void> {
    if (typeof data !== 'string') throw new ProcmuxError('ERR_INVALID_OPTION', 'input must be a string');
    await this.#write(data, 'input');
  }

  /**
   * Pastes text. Bracketing follows the program's last ESC[?2004h/l unless `bracketed` says
   * otherwise; pipe sessions are never bracketed.
   */
  async paste(text: string, options: { bracketed?: boolean } = {}): Promise<void> {
    if (typeof text !== 'string') throw new ProcmuxError('ERR_INVALID_OPTION', 'paste text must be a string');
    if (options.bracketed === true && this.#stdioMode !== 'pty') {
      throw new ProcmuxError(
        'ERR_INVALID_OPTION',
        'bracketed paste needs a PTY session; this session uses pipes',
      );
    }
    const bracketed = this.#stdioMode === 'pty' && (options.bracketed ?? this.#bracketedPasteMode());
    await this.#write(encodePaste(text, { bracketed }), 'input');
  }

  /** Sends named keys (`C-c`, `Up`, `Enter`, ...), honouring application cursor mode. */
  async sendKeys(keys: string | readonly string[]): Promise<void> {
    const list = typeof keys === 'string' ? [keys] : [...keys];
    const data = encodeKeySequence({
      keys: list,
      applicationCursorKeys: this.#screen?.modes.applicationCursorKeys ?? false,
    });
    await this.#write(data, 'input', true);
  }

  /** Presses Enter (CR). */
  async submit(): Promise<void> {
    await this.#write('\r', 'input');
  }

  /** Closes stdin: EOF for pipes, EOT (Ctrl-D) for a PTY. */
  async closeStdin(): Promise<void> {
    if (this.#control) throw humanControlError(this.id, this.#control);
    await this.#writable('input', 0);
    this.#run!.stdin?.close();
    if (this.#stdioMode === 'pipe') this.#stdinClosed = true;
  }

  /** Sends a signal to the process (not the tree; kill() takes the tree). */
  async signal(name: SignalName): Promise<void> {
    if (typeof name !== 'string' || !(name in constants.signals)) {
      throw new ProcmuxError(
        'ERR_INVALID_OPTION',
        `signal must be a signal name such as "SIGINT" or "SIGTERM" (got ${String(name)})`,
      );
    }
    await this.#mutable('signal', { signal: name });
    if (this.#adapter) {
      await this.#adapter.handle.signal(name);
      return;
    }
    const pid = this.pid;
    if (pid === undefined)
      throw new ProcmuxError('ERR_PROCESS_STATE', `session ${this.id} has no process id to signal`);
    try {
      process.kill(pid, name);
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code !== 'ESRCH') throw cause;
    }
  }

  /** Kills the whole tree and resolves once the session is `killed`. */
  async kill(): Promise<WaitOutcome> {
    await this.#mutable('kill', { signal: 'SIGKILL' });
    this.#forced = 'killed';
    await this.#hangUp();
    this.#run?.cancel('manual-cancel');
    await this.#settled;
    return { exitCode: this.#exitCode, signal: this.#signal, state: this.#state };
  }

  /**
   * The graceful step for a native terminal session: hang the terminal up (SIGHUP to its
   * foreground group and its leader, as closing a terminal window does) and give the program
   * a moment to end. An interactive shell ignores SIGTERM, so without this it sat out the
   * whole SIGTERM grace (3 s) before SIGKILL; the tree kill that follows reaps whatever is left.
   */
  async #hangUp(): Promise<void> {
    const pid = this.pid;
    if (this.#stdioMode !== 'pty' || this.#adapter || pid === undefined || !this.live) return;
    try {
      hangUp(pid);
    } catch {
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.#run!.wait().catch(() => {}),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, HANG_UP_WAIT_MS);
      }),
    ]);
    clearTimeout(timer);
  }

  /** Stops tracking; the process keeps running. Every later call is ERR_PROCESS_STATE. */
  async release(): Promise<void> {
    await this.#access();
    if (!this.live) {
      throw new ProcmuxError(
        'ERR_PROCESS_STATE',
        `session ${this.id} is ${this.#state}; only a running session can be released`,
      );
    }
    if (this.#adapter?.handle.release) await this.#adapter.handle.release();
    this.#settle('released', null, null, 'released by the host');
    void this.#retireScreen();
  }

  /**
   * Whether resize() can work on this session: a terminal whose backend declared resize (the
   * native backend does; a host backend through `capabilities.resize`). False for pipes, a
   * PTY start that fell back to pipes, and before the process started. Check it instead of
   * `'resize' in session`, which is always true (resize() is a method).
   */
  get canResize(): boolean {
    return this.#stdioMode === 'pty' && this.#run?.resize !== undefined;
  }

  /** Resizes the terminal where the backend can (rate-limited). */
  async resize(size: { columns: number; rows: number }): Promise<void> {
    if (this.#control) throw humanControlError(this.id, this.#control);
    await this.#writable('input', 0);
    const resize = this.#run?.resize;
    if (this.#stdioMode !== 'pty' || !resize) {
      throw new ProcmuxError(
        'ERR_PROCESS_UNSUPPORTED',
        `session ${this.id} cannot be resized: its backend declares no resize`,
      );
    }
    const { maxTerminalColumns, maxTerminalRows, maxResizesPerMinute } = this.#ctx.limits;
    if (typeof size !== 'object' || size === null) {
      throw new ProcmuxError('ERR_INVALID_OPTION', 'resize needs { columns, rows }');
    }
    // No default for a missing dimension: the NaN fallback makes it an error saying what is allowed.
    integerOption('columns', size.columns, Number.NaN, 1, maxTerminalColumns);
    integerOption('rows', size.rows, Number.NaN, 1, maxTerminalRows);
    const now = Date.now();
    this.#resizes = this.#resizes.filter((t) => now - t < 60_000);
    if (this.#resizes.length >= maxResizesPerMinute) {
      throw new ProcmuxError(
        'ERR_PROCESS_PTY_LIMIT',
        `session ${this.id} was resized ${maxResizesPerMinute} times in the last minute; that is the limit`,
      );
    }
    this.#resizes.push(now);
    resize.call(this.#run, size.columns, size.rows);
    this.#screen?.resize(size.columns, size.rows);
    this.#terminal = { columns: size.columns, rows: size.rows };
    this.#timeline.resized(now, size.columns, size.rows);
    this.#watchers.emit({ type: 'resize', columns: size.columns, rows: size.rows });
  }

  // ---- people watching: live view, take-control, recordings ------------------------------

  /** Columns and rows of the session's terminal now; undefined for a pipe session. */
  get terminalSize(): { columns: number; rows: number } | undefined {
    return this.#stdioMode === 'pty' && this.#terminal ? { ...this.#terminal } : undefined;
  }

  /** Who holds the keyboard instead of the model, or null. */
  get humanControl(): HumanControlState | null {
    return this.#control ? { holder: this.#control.holder, since: this.#control.since } : null;
  }

  /**
   * Calls `listener` with output as it arrives, resizes, state changes and control changes,
   * until the returned disposer runs. Pair with snapshot(): subscribe first, then keep only
   * output whose `offset` is past the snapshot's.
   */
  watch(listener: SessionWatcher): () => void {
    if (typeof listener !== 'function') {
      throw new ProcmuxError('ERR_INVALID_OPTION', 'watch() takes a function');
    }
    return this.#watchers.add(listener);
  }

  /**
   * What a terminal attaching now should be given first: the screen as escape sequences
   * (emulated sessions), else the last `maxBytes` (default 1 MiB) of retained output as
   * written (a pipe's bare line feeds included), and the log's byte count it covers. Output
   * with a larger watch() offset comes after it.
   */
  async snapshot(
    options: { maxBytes?: number } = {},
  ): Promise<{ data: string; offset: number; emulated: boolean }> {
    await this.#access();
    const maxBytes = integerOption(
      'maxBytes',
      options.maxBytes,
      SNAPSHOT_BYTES,
      1,
      this.#ctx.limits.maxOutputBytes,
    );
    if (this.#screen) {
      const data = await this.#screen.serialize();
      // Read in the same tick the screen caught up in: no output arrived in between.
      return { data, offset: this.#log.totalBytes, emulated: true };
    }
    const pages: string[] = [];
    let cursor = Math.max(this.#log.firstRetainedOffset, this.#log.totalBytes - maxBytes);
    for (;;) {
      const page = this.#log.read({ cursor });
      pages.push(page.data);
      if (page.eof || page.cursor === cursor) break;
      cursor = page.cursor;
    }
    return { data: pages.join(''), offset: this.#log.totalBytes, emulated: false };
  }

  /**
   * Gives a person the keyboard of this running session until the lease is released or the
   * session ends; meanwhile the model's input is ERR_PROCESS_STATE. Emits
   * `human_control_started` / `human_control_ended` (never the keystrokes). A second
   * takeControl while one is held is ERR_PROCESS_STATE.
   */
  async takeControl(options: { holder: string }): Promise<HumanControlLease> {
    const holder = holderName(options?.holder);
    await this.#writable('input', 0);
    if (this.#control) {
      throw new ProcmuxError(
        'ERR_PROCESS_STATE',
        `${this.#control.holder} already has control of session ${this.id}; they must release it first`,
      );
    }
    const since = Date.now();
    let released = false;
    const end = (reason: string) => {
      if (released) return;
      released = true;
      if (this.#control === control) this.#control = undefined;
      this.#controlEvent('human_control_ended', holder, reason);
    };
    const control = { holder, since, end };
    this.#control = control;
    this.#controlEvent('human_control_started', holder);
    const write = async (data: string) => {
      if (released) {
        throw new ProcmuxError('ERR_PROCESS_STATE', `control of session ${this.id} was released`);
      }
      if (typeof data !== 'string') throw new ProcmuxError('ERR_INVALID_OPTION', 'input must be a string');
      await this.#write(data, 'input', true, true);
    };
    return {
      holder,
      since,
      write,
      release: () => end('released'),
      get released() {
        return released;
      },
    };
  }

  /**
   * The retained output as an asciicast v2 file (asciinema's format): arrival times kept,
   * resizes as "r" events, input never. See asciicast.ts for what a capped history does.
   */
  async asciicast(): Promise<string> {
    await this.#access();
    // A pipe session has no terminal; asciinema's default size replays it.
    const initial = this.#initialTerminal ?? { columns: 80, rows: 24 };
    return asciicast(this.#log, this.#timeline, {
      id: this.id,
      command: this.command,
      args: this.args,
      startedAt: this.startedAt,
      columns: initial.columns,
      rows: initial.rows,
      pipe: this.#stdioMode === 'pipe',
    });
  }

  #controlEvent(type: 'human_control_started' | 'human_control_ended', holder: string, reason?: string) {
    this.#ctx.emit({
      type,
      sessionId: this.id,
      owner: this.owner,
      fingerprint: this.fingerprint,
      state: this.#state,
      at: Date.now(),
      startedAt: this.startedAt,
      endedAt: this.#endedAt,
      pid: this.pid,
      stdioMode: this.#stdioMode,
      exitCode: this.#exitCode,
      signal: this.#signal,
      reason: reason ?? `taken by ${holder}`,
    });
    this.#watchers.emit({ type: 'control', holder: type === 'human_control_started' ? holder : null });
  }

  // ---- internals ------------------------------------------------------------------------

  async #access(): Promise<void> {
    if (this.#state === 'released') {
      throw new ProcmuxError(
        'ERR_PROCESS_STATE',
        `session ${this.id} was released; it can no longer be used`,
      );
    }
    await this.#ctx.sweep();
  }

  async #mutable(action: PolicyAction, extra: { signal?: SignalName; bytes?: number }): Promise<void> {
    await this.#access();
    if (!this.live || !this.#run) {
      throw new ProcmuxError(
        'ERR_PROCESS_STATE',
        `session ${this.id} is ${this.#state}; ${action} needs a running session`,
      );
    }
    await enforcePolicy(this.#ctx.policy, {
      action,
      sessionId: this.id,
      owner: this.owner,
      command: this.command,
      args: this.args,
      cwd: this.cwd,
      fingerprint: this.fingerprint,
      pty: this.pty,
      ...extra,
    });
  }

  async #writable(action: PolicyAction, bytes: number): Promise<void> {
    await this.#mutable(action, { bytes });
    if (this.#stdinClosed || !this.#run?.stdin) {
      throw new ProcmuxError('ERR_PROCESS_STATE', `session ${this.id} has its stdin closed`);
    }
  }

  async #write(data: string, action: PolicyAction, keys = false, human = false): Promise<void> {
    if (!human && this.#control) throw humanControlError(this.id, this.#control);
    const bytes = Buffer.byteLength(data);
    if (bytes > this.#ctx.limits.maxInputBytes) {
      throw new ProcmuxError(
        'ERR_PROCESS_LIMIT',
        `input is ${bytes} bytes; at most ${this.#ctx.limits.maxInputBytes} bytes per call`,
      );
    }
    // A NUL typed as a key (C-@) is a deliberate terminal byte; raw NULs in text are not.
    if (this.#stdioMode === 'pty' && !keys && data.includes('\0')) {
      throw new ProcmuxError('ERR_PROCESS_POLICY', 'input to a PTY session must not contain NUL bytes');
    }
    await this.#writable(action, bytes);
    // Checked again after the awaits: a person may have taken control meanwhile.
    if (!human && this.#control) throw humanControlError(this.id, this.#control);
    this.#run!.stdin!.write(data);
    this.#input.noteInput();
  }

  #bracketedPasteMode(): boolean {
    if (this.#screen) return this.#screen.modes.bracketedPaste;
    return this.#run?.stdin?.bracketedPasteEnabled ?? false;
  }

  #nextEvent(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.#waiters.add(done);
    });
  }

  #wake(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }

  async #collect(): Promise<PollResult> {
    this.#pending = false;
    const drained = this.#log.drain();
    const ended = !this.live;
    let stdout: string;
    let stderr: string;
    if (this.#emulated) {
      await this.#retiring;
      const final = this.#finalScreen;
      if (final) {
        stdout = final.delta;
        final.delta = '';
      } else {
        stdout = this.#screen ? await this.#screen.renderNew() : '';
      }
      stderr = '';
    } else {
      stdout = this.#text.stdout.read(drained.stdout, ended);
      stderr = this.#text.stderr.read(drained.stderr, ended);
    }
    return {
      stdout,
      stderr,
      state: this.#state,
      exitCode: this.#exitCode,
      signal: this.#signal,
      droppedBytes: drained.droppedBytes,
    };
  }

  #finish(exit: RunExit | undefined): void {
    if (isTerminalState(this.#state)) return;
    if (this.#adapter?.lost || exit === undefined) {
      this.#settle('unknown', null, null, 'the process backend lost this session');
    } else if (this.#forced) {
      this.#settle(
        this.#forced,
        null,
        exit.signal ?? 'SIGKILL',
        this.#forced === 'expired' ? 'lifetime' : 'kill',
      );
    } else if (exit.reason === 'exit' && exit.exitCode !== null) {
      this.#settle('exited', exit.exitCode, null);
    } else {
      this.#settle('killed', null, exit.signal, exit.reason);
    }
  }

  #settle(state: SessionState, exitCode: number | null, signal: SignalName | null, reason?: string): void {
    this.#state = state;
    this.#exitCode = state === 'exited' ? exitCode : null;
    this.#signal = signal;
    this.#endedAt = Date.now();
    this.#endReason = reason ?? null;
    const type: ProcessEventType = `process_${state === 'exited' ? 'exited' : state}` as ProcessEventType;
    this.#ctx.emit({
      type,
      sessionId: this.id,
      owner: this.owner,
      fingerprint: this.fingerprint,
      state,
      at: this.#endedAt,
      startedAt: this.startedAt,
      endedAt: this.#endedAt,
      pid: this.pid,
      stdioMode: this.#stdioMode,
      exitCode: this.#exitCode,
      signal,
      ...(reason ? { reason } : {}),
    });
    this.#control?.end('the session ended');
    this.#input.stop();
    this.#watchers.emit({ type: 'state', state });
    this.#wake();
    // wait() and kill() resolve once the record says so too, so a host reads its own writes.
    void this.#persist(reason).then(() => this.#resolveSettled());
  }

  /** Hands the current state to the durable journal, if the registry has one. */
  #persist(reason: string | undefined): Promise<void> {
    const persist = this.#ctx.persist;
    if (!persist) return this.#persisted;
    this.#persisted = persist(this.recordSource(reason));
    return this.#persisted;
  }
}
