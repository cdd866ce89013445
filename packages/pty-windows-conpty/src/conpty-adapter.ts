import { statSync } from 'node:fs';
import { type KillMode, ProcmuxError } from '@procmux/core-types';
import { killProcessTree } from '@procmux/kill-windows';
import { PtyAdapterBase, type PtyKillTimings, resolveKillTimings } from '@procmux/pty-core';
import { loadNodePty } from './load-node-pty.js';
import type { ConptyDisposable, ConptyModule, ConptyTerminal } from './node-pty.js';
import { type ConptyOptions, type ResolvedConptySpawn, resolveConptySpawn } from './spawn-options.js';

const CTRL_C = '\x03';

type KillTree = NonNullable<ConptyOptions['killTree']>;

/**
 * A program on a Windows pseudoconsole (ConPTY) over node-pty. Shell commands reach cmd or
 * PowerShell verbatim. node-pty reports the exit only after the console's output pipe has
 * closed, so wait() follows everything the program wrote. What all PTY adapters share
 * (checks, stdin, settle-once, the force-settle timer) is PtyAdapterBase; this class is the
 * ConPTY spawn, kill and release (it has no hang-up: hangUp() resolves false).
 *
 * @example
 * const pty = await PtyAdapter.create({ command: 'dir /b "C:\\Program Files"' });
 * pty.onStdout((chunk) => process.stdout.write(chunk));
 * const { code } = await pty.wait();
 */
export class PtyAdapter extends PtyAdapterBase {
  readonly backend = 'node-pty';
  readonly pid: number;
  readonly #terminal: ConptyTerminal;
  readonly #dataSubscription: ConptyDisposable;
  readonly #killTree: KillTree;
  #exited = false;

  /**
   * Validates the options, loads node-pty (on first use), checks cwd, and spawns on ConPTY.
   * Rejects with ERR_INVALID_OPTION, ERR_PROCESS_PTY_BACKEND or ERR_PROCESS_SPAWN.
   */
  static async create(options: ConptyOptions = {}): Promise<PtyAdapter> {
    const spawn = resolveConptySpawn(options);
    const timings = resolveKillTimings(options);
    const nodePty = options.nodePty ?? (await loadNodePty());
    assertDirectory(spawn.cwd, options.isDirectory ?? isDirectory);
    const terminal = spawnOn(nodePty, spawn);
    return new PtyAdapter(terminal, timings, options.killTree ?? killProcessTree);
  }

  private constructor(terminal: ConptyTerminal, timings: PtyKillTimings, killTree: KillTree) {
    super(timings);
    this.#terminal = terminal;
    this.#killTree = killTree;
    this.pid = terminal.pid;
    this.#dataSubscription = terminal.onData((data) => this.output(data));
    // Kept past dispose(), so wait() still settles.
    terminal.onExit(({ exitCode }) => {
      this.#exited = true;
      // Windows has no signals: a program ends with a code, even when it was killed.
      this.settle({ code: exitCode, signal: null });
    });
  }

  /**
   * 'graceful' types Ctrl-C into the console, which ConPTY turns into CTRL_C_EVENT for the
   * programs attached to it: the nearest a pseudoconsole has to SIGTERM. 'force' (the
   * default) kills the whole tree through @procmux/kill-windows (`taskkill /T`, the grace,
   * `taskkill /F /T`); if no exit is reported within 4 s after that, wait() settles as
   * SIGKILL anyway.
   */
  override kill(mode: KillMode = 'force'): Promise<void> {
    return super.kill(mode);
  }

  /**
   * Releases listeners and timers and closes the pseudoconsole (node-pty's kill(), which ends
   * the programs attached to it, as closing a terminal window does; node-pty cannot let go of
   * a pseudoconsole otherwise). wait() still settles on the exit.
   */
  override dispose(): void {
    super.dispose();
  }

  protected get exited(): boolean {
    return this.#exited;
  }

  protected writeInput(data: string | Uint8Array): void {
    if (this.#exited || this.disposed) return;
    this.#terminal.write(typeof data === 'string' ? data : Buffer.from(data));
  }

  protected killGracefully(): void {
    this.writeInput(CTRL_C);
  }

  // Windows has no SIGHUP; closing the pseudoconsole is release(), and a forced end is the
  // tree kill. So a hang-up signals nothing here and the caller's tree kill goes on at once.
  protected hangUpTerminal(): boolean {
    return false;
  }

  protected killTree(graceMs: number): Promise<unknown> {
    return this.#killTree(this.pid, { graceMs });
  }

  protected resizeTerminal(cols: number, rows: number): void {
    this.#terminal.resize(cols, rows);
  }

  protected release(): void {
    this.#dataSubscription.dispose();
    if (!this.#exited) this.#terminal.kill();
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
