import { statSync } from 'node:fs';
import { TerminalModeTracker } from '@procmux/ansi';
import {
  DEFAULT_KILL_GRACE_MS,
  type Disposer,
  describe,
  type KillMode,
  MAX_KILL_GRACE_MS,
  OutputChannel,
  ProcmuxError,
  type PtyAdapterStdin,
  type PtyProcessAdapter,
  TERMINAL_COLUMNS_LIMIT,
  TERMINAL_ROWS_LIMIT,
  type WaitResult,
} from '@procmux/core-types';
import { killProcessTree } from '@procmux/kill-windows';
import { loadNodePty } from './load-node-pty.js';
import type { ConptyDisposable, ConptyModule, ConptyTerminal } from './node-pty.js';
import {
  type ConptyOptions,
  type ResolvedConptySpawn,
  resolveConptySpawn,
  resolveForceKillSettleMs,
} from './spawn-options.js';

const EOT = '\x04';
const CTRL_C = '\x03';

type KillTree = NonNullable<ConptyOptions['killTree']>;

/**
 * A program on a Windows pseudoconsole (ConPTY) over node-pty. Shell commands reach cmd or
 * PowerShell verbatim. node-pty reports the exit only after the console's output pipe has
 * closed, so wait() follows everything the program wrote.
 *
 * @example
 * const pty = await PtyAdapter.create({ command: 'dir /b "C:\\Program Files"' });
 * pty.onStdout((chunk) => process.stdout.write(chunk));
 * const { code } = await pty.wait();
 */
export class PtyAdapter implements PtyProcessAdapter {
  readonly stdioMode = 'pty' as const;
  readonly backend = 'node-pty';
  readonly pid: number;
  readonly stdin: PtyAdapterStdin;
  readonly #terminal: ConptyTerminal;
  readonly #stdout = new OutputChannel();
  readonly #modes = new TerminalModeTracker();
  readonly #dataSubscription: ConptyDisposable;
  readonly #exit: Promise<WaitResult>;
  #resolveExit!: (result: WaitResult) => void;
  #exited = false;
  #result: WaitResult | undefined;
  #forceTimer: NodeJS.Timeout | undefined;
  #disposed = false;

  /**
   * Validates the options, loads node-pty (on first use), checks cwd, and spawns on ConPTY.
   * Rejects with ERR_INVALID_OPTION, ERR_PROCESS_PTY_BACKEND or ERR_PROCESS_SPAWN.
   */
  static async create(options: ConptyOptions = {}): Promise<PtyAdapter> {
    const spawn = resolveConptySpawn(options);
    const forceKillSettleMs = resolveForceKillSettleMs(options.forceKillSettleMs);
    const killGraceMs = resolveKillGraceMs(options.killGraceMs);
    const nodePty = options.nodePty ?? (await loadNodePty());
    assertDirectory(spawn.cwd, options.isDirectory ?? isDirectory);
    const terminal = spawnOn(nodePty, spawn);
    return new PtyAdapter(terminal, forceKillSettleMs, killGraceMs, options.killTree ?? killProcessTree);
  }

  private constructor(
    terminal: ConptyTerminal,
    private readonly forceKillSettleMs: number,
    private readonly killGraceMs: number,
    private readonly killTree: KillTree,
  ) {
    this.#exit = new Promise((resolve) => {
      this.#resolveExit = resolve;
    });
    this.#terminal = terminal;
    this.pid = terminal.pid;
    this.#dataSubscription = terminal.onData((data) => {
      if (this.#disposed) return;
      this.#modes.feed(data);
      this.#stdout.emit(data);
    });
    // Kept past dispose(), so wait() still settles.
    terminal.onExit(({ exitCode }) => {
      this.#exited = true;
      // Windows has no signals: a program ends with a code, even when it was killed.
      this.#settle({ code: exitCode, signal: null });
    });
    const modes = this.#modes;
    this.stdin = {
      write: (data) => this.#write(checkInput(data)),
      close: () => this.#write(EOT),
      get bracketedPasteEnabled() {
        return modes.bracketedPaste;
      },
    };
  }

  onStdout(listener: (chunk: string) => void): Disposer {
    return this.#stdout.on(listener);
  }

  /** A pseudoconsole merges stderr into stdout: this never fires. */
  onStderr(_listener: (chunk: string) => void): Disposer {
    return () => {};
  }

  wait(): Promise<WaitResult> {
    return this.#exit;
  }

  /**
   * 'graceful' types Ctrl-C into the console, which ConPTY turns into CTRL_C_EVENT for the
   * programs attached to it: the nearest a pseudoconsole has to SIGTERM. 'force' (the
   * default) kills the whole tree at once through @procmux/kill-windows (`taskkill /F /T`);
   * if no exit is reported within 4 s, wait() settles as SIGKILL anyway. Does nothing once
   * the program has exited.
   */
  async kill(mode: KillMode = 'force'): Promise<void> {
    if (mode !== 'graceful' && mode !== 'force') {
      throw new ProcmuxError(
        'ERR_INVALID_OPTION',
        `kill mode must be 'graceful' or 'force' (got ${describe(mode)})`,
        {
          details: { option: 'mode' },
        },
      );
    }
    if (this.#exited || this.#result !== undefined) return;
    if (mode === 'graceful') {
      this.#write(CTRL_C);
      return;
    }
    if (this.#forceTimer === undefined && !this.#disposed) {
      this.#forceTimer = setTimeout(
        () => this.#settle({ code: null, signal: 'SIGKILL' }),
        this.forceKillSettleMs,
      );
    }
    await this.killTree(this.pid, { graceMs: this.killGraceMs });
  }

  /** Resizes the pseudoconsole. Ignored once the program has exited. */
  resize(cols: number, rows: number): void {
    checkSize('cols', cols, TERMINAL_COLUMNS_LIMIT.hard);
    checkSize('rows', rows, TERMINAL_ROWS_LIMIT.hard);
    if (!this.#exited && !this.#disposed) this.#terminal.resize(cols, rows);
  }

  /**
   * Releases listeners and timers and closes the pseudoconsole (node-pty's kill(), which ends
   * the programs attached to it, as closing a terminal window does; node-pty cannot let go of
   * a pseudoconsole otherwise). wait() still settles on the exit.
   */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    if (this.#forceTimer !== undefined) clearTimeout(this.#forceTimer);
    this.#forceTimer = undefined;
    this.#stdout.dispose();
    this.#dataSubscription.dispose();
    if (!this.#exited) this.#terminal.kill();
  }

  #write(data: string | Uint8Array): void {
    if (this.#exited || this.#disposed) return;
    this.#terminal.write(typeof data === 'string' ? data : Buffer.from(data));
  }

  #settle(result: WaitResult): void {
    if (this.#result !== undefined) return;
    this.#result = result;
    if (this.#forceTimer !== undefined) clearTimeout(this.#forceTimer);
    this.#forceTimer = undefined;
    this.#resolveExit(result);
  }
}

/**
 * Starts a program on ConPTY: the PtyPlatformModule entry point the supervisor calls on
 * Windows. Same as `PtyAdapter.create(options)`.
 */
export function createPtyAdapter(options: ConptyOptions = {}): Promise<PtyAdapter> {
  return PtyAdapter.create(options);
}

function spawnOn(nodePty: ConptyModule, spawn: ResolvedConptySpawn): ConptyTerminal {
  try {
    return nodePty.spawn(spawn.file, spawn.args, {
      name: spawn.term,
      cols: spawn.cols,
      rows: spawn.rows,
      cwd: spawn.cwd,
      env: spawn.env,
      useConpty: true,
    });
  } catch (error) {
    // node-pty throws when CreateProcess fails, e.g. for a program that is not found.
    throw new ProcmuxError(
      'ERR_PROCESS_SPAWN',
      `could not start ${spawn.file} on ConPTY (is it installed and on PATH?)`,
      {
        cause: error,
        details: { file: spawn.file, backend: 'node-pty' },
      },
    );
  }
}

// node-pty on Windows reports a bad cwd only as a failed CreateProcess, without saying which.
function assertDirectory(cwd: string, check: (path: string) => boolean): void {
  if (check(cwd)) return;
  throw new ProcmuxError('ERR_PROCESS_SPAWN', `cwd does not exist or is not a directory: ${cwd}`, {
    details: { cwd, missing: 'cwd' },
  });
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function checkInput(data: unknown): string | Uint8Array {
  if (typeof data === 'string' || data instanceof Uint8Array) return data;
  throw new ProcmuxError(
    'ERR_INVALID_OPTION',
    `stdin data must be a string or a Uint8Array (got ${describe(data)})`,
    {
      details: { option: 'data' },
    },
  );
}

function checkSize(name: 'cols' | 'rows', value: unknown, max: number): void {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max) return;
  throw new ProcmuxError(
    'ERR_INVALID_OPTION',
    `${name} must be an integer from 1 to ${max} (got ${describe(value)})`,
    {
      details: { option: name, min: 1, max },
    },
  );
}

/** kill('force')'s grace between taskkill /T and taskkill /T /F: default 3000, 0 to 60000. */
function resolveKillGraceMs(value: unknown): number {
  if (value === undefined) return DEFAULT_KILL_GRACE_MS;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_KILL_GRACE_MS)
    return value;
  throw new ProcmuxError(
    'ERR_INVALID_OPTION',
    `killGraceMs must be an integer from 0 to ${MAX_KILL_GRACE_MS} (got ${describe(value)})`,
    { details: { option: 'killGraceMs' } },
  );
}
