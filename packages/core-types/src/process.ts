// The adapter and run contract. Adapters (pipes, PTYs, a host's sandbox) implement
// ProcessAdapter; the supervisor turns one into a ManagedRun.

/** A signal by Node's name ('SIGTERM'), never a number, on every public surface. */
export type SignalName = NodeJS.Signals;

/**
 * Why a run ended. Forced reasons (timeouts, cancel) win over signal, signal over exit.
 * There is no 'spawn-error': a spawn that fails rejects spawn() with ERR_PROCESS_SPAWN
 * before any run exists (the supervisor waits for the OS to confirm the spawn, and a PTY
 * spawn checks the executable first), so no run can end for that reason.
 */
export type TerminationReason = 'exit' | 'signal' | 'overall-timeout' | 'no-output-timeout' | 'manual-cancel';

/** 'graceful' asks the process to stop (SIGTERM, CTRL_BREAK); 'force' tears down the whole tree. */
export type KillMode = 'graceful' | 'force';

/** What a spawn resolved to: a pseudo-terminal or plain pipes. */
export type StdioMode = 'pty' | 'pipe';

/**
 * 'closed': stdin is at EOF from the start (after any `input`); 'open': the caller writes.
 * 'terminal' (pipes, POSIX): stdin is a pseudo-terminal that only the caller writes to, while
 * stdout and stderr stay pipes, so programs that prompt only on a terminal do.
 */
export type StdinMode = 'open' | 'closed' | 'terminal';

/** How a process ended: exactly one of `code` and `signal` is set. */
export type WaitResult = { code: number; signal: null } | { code: null; signal: SignalName };

/** Removes a listener; calling it twice is harmless. */
export type Disposer = () => void;

export interface AdapterStdin {
  /** Writes UTF-8 text or raw bytes. Writing after close() is ignored by pipes, refused by sessions. */
  write(data: string | Uint8Array): void;
  /** Pipes: end of file. PTY: sends EOT (Ctrl-D). */
  close(): void;
  /** PTY only: whether the program last enabled bracketed paste (`ESC[?2004h`). */
  readonly bracketedPasteEnabled?: boolean;
}

/**
 * Takes one chunk of output. `bytes`, when given, are exactly the chunk's UTF-8 encoding (an
 * adapter that decoded them passes them on, so a log stores them without encoding the text
 * again); a listener must not keep or change them past the call.
 */
export type OutputListener = (chunk: string, bytes?: Uint8Array) => void;

/**
 * One running process, whoever owns it. Output arrives as UTF-8 strings that never split a
 * character; output emitted before the first listener of a stream is attached is kept and
 * delivered to that listener, so nothing is lost between spawn and subscription.
 */
export interface ProcessAdapter {
  readonly pid: number | undefined;
  readonly stdioMode: StdioMode;
  readonly stdin: AdapterStdin | undefined;
  onStdout(listener: OutputListener): Disposer;
  /** A PTY merges stderr into stdout; its onStderr never fires. */
  onStderr(listener: OutputListener): Disposer;
  /** Resolves after the exit and after output has drained (bounded), never before. */
  wait(): Promise<WaitResult>;
  /** Resolves once the signal or tree kill has been carried out. */
  kill(mode?: KillMode): Promise<void>;
  /**
   * Sends one signal to the process (not the tree). Optional: where it is absent the
   * supervisor signals `pid`.
   */
  signal?(name: SignalName): Promise<void>;
  /**
   * What closing the terminal window does: SIGHUP to the terminal's foreground process group,
   * then to its session leader. Resolves true when the terminal was hung up, false when there
   * was nothing to hang up. Optional: only a native PTY adapter has a terminal to hang up.
   */
  hangUp?(): Promise<boolean>;
  /** Present only where the backend can resize. */
  resize?(cols: number, rows: number): void;
  /** Releases listeners and handles. Does not kill; kill first when that is wanted. */
  dispose(): void;
}

/** Stdin of a PTY adapter. */
export interface PtyAdapterStdin extends AdapterStdin {
  readonly bracketedPasteEnabled: boolean;
}

/** A PTY adapter: a ProcessAdapter that can always resize and says which backend it runs on. */
export interface PtyProcessAdapter extends ProcessAdapter {
  readonly stdioMode: 'pty';
  readonly stdin: PtyAdapterStdin;
  /** The native module that was loaded, e.g. 'node-pty'. */
  readonly backend: string;
  resize(cols: number, rows: number): void;
  /**
   * Hangs the terminal up (see ProcessAdapter.hangUp). False once the program has exited or
   * the adapter is disposed, and on a platform without hang-ups (ConPTY).
   */
  hangUp(): Promise<boolean>;
}

/** What to run: a command string through a shell, or a file with arguments and no shell. */
export interface SpawnTarget {
  command?: string;
  file?: string;
  args?: readonly string[];
  /** Shell for `command`: POSIX path or name; on Windows 'cmd' | 'powershell' | 'pwsh'. */
  shell?: string;
}

export interface PtySpawnOptions extends SpawnTarget {
  cwd?: string;
  /** The full environment of the child (the adapter adds the tree marker). */
  env?: Readonly<Record<string, string | undefined>>;
  cols?: number;
  rows?: number;
  term?: string;
  /**
   * Grace of kill('force'): the tree gets SIGTERM (taskkill /T), and whatever is left after
   * this many ms gets SIGKILL (taskkill /T /F). Default 3000, 0 to 60000.
   */
  killGraceMs?: number;
  /**
   * The child's PROCMUX_TREE value, when the caller minted it (the supervisor does, so its
   * watchdog knows the tree before the process exists). Default: a fresh marker.
   */
  treeMarker?: string;
}

/** The surface a PTY platform package exports, so the supervisor can pick one by platform. */
export interface PtyPlatformModule {
  createPtyAdapter(options: PtySpawnOptions): Promise<PtyProcessAdapter>;
}

/** Result of a tree kill: every pid that got a signal, and those still alive at the end. */
export interface KillReport {
  signalled: number[];
  survivors: number[];
}

export interface KillTreeOptions {
  /** Milliseconds between SIGTERM and SIGKILL; 0 kills at once. An integer from 0 to 60000. */
  graceMs?: number;
  /**
   * The tree's PROCMUX_TREE value, when the caller knows it: lets the kill reach setsid
   * escapees even after the root has exited (POSIX with /proc).
   */
  marker?: string;
}

/** The surface a kill platform package exports. */
export interface KillPlatformModule {
  killProcessTree(pid: number, options?: KillTreeOptions): Promise<KillReport>;
  /** The live processes the tree kill of `pid` would reach now (POSIX; absent on Windows). */
  snapshotProcessTree?(pid: number, options?: { marker?: string }): Promise<readonly { pid: number }[]>;
}

/** A process of a run's tree still alive when the run's own process ended. */
export interface LeftoverProcess {
  pid: number;
  /** Its command line as the kernel shows it (`sleep 30`), cut at 200 characters. */
  command: string;
}

/** What ManagedRun.wait() resolves to. */
export interface RunExit {
  reason: TerminationReason;
  exitCode: number | null;
  signal: SignalName | null;
  durationMs: number;
  /** Captured output, up to maxCaptureBytes each (ANSI left as the program wrote it). */
  stdout: string;
  stderr: string;
  /** True when stdout or stderr was cut at maxCaptureBytes. */
  truncated: boolean;
  /** True when either timeout fired. */
  timedOut: boolean;
  /** True when the idle (no-output) timeout fired. */
  noOutputTimedOut: boolean;
  stdioMode: StdioMode;
  /**
   * With `endLeftovers`: the processes of its tree still alive when its own process exited,
   * listed before anything of the tree was ended (empty when none). Absent otherwise.
   */
  leftovers?: LeftoverProcess[];
}

/** The supervisor's handle on a started run. */
export interface ManagedRun {
  readonly runId: string;
  readonly pid: number | undefined;
  /** Epoch milliseconds. */
  readonly startedAt: number;
  readonly stdioMode: StdioMode;
  readonly stdin: AdapterStdin | undefined;
  wait(): Promise<RunExit>;
  /** Force-kills the tree and records the reason ('manual-cancel' by default). */
  cancel(reason?: TerminationReason): void;
  /**
   * Sends one signal to the process (not the tree; cancel() takes the tree): the adapter's
   * own signal() where it has one, else to `pid`. A process already gone is no error.
   */
  signal(name: SignalName): Promise<void>;
  /**
   * Hangs the run's terminal up, as closing its window does (the adapter's hangUp()). Resolves
   * false, signalling nothing, for a run on pipes, a host backend's run, or a settled one.
   */
  hangUp(): Promise<boolean>;
  resize?(cols: number, rows: number): void;
}

/** Where procmux reports what a caller should know but need not act on (a PTY fallback). */
export interface Logger {
  debug?(message: string, fields?: Readonly<Record<string, unknown>>): void;
  info?(message: string, fields?: Readonly<Record<string, unknown>>): void;
  warn(message: string, fields?: Readonly<Record<string, unknown>>): void;
  error?(message: string, fields?: Readonly<Record<string, unknown>>): void;
}
