import { StringDecoder } from 'node:string_decoder';
import { TerminalModeTracker } from '@procmux/ansi';
import {
  type Disposer,
  describe,
  type KillMode,
  OutputChannel,
  ProcmuxError,
  type PtyAdapterStdin,
  type PtyProcessAdapter,
  TERMINAL_COLUMNS_LIMIT,
  TERMINAL_ROWS_LIMIT,
  type WaitResult,
} from '@procmux/core-types';
import { killProcessTree } from '@procmux/kill-posix';
import { closeInheritedDescriptors } from '@procmux/shell-wrap';
import { toWaitResult } from './exit-status.js';
import { loadPtyBackend } from './load-backend.js';
import { isPtyNativeModule, type PtyBackend, type PtyBackendName } from './native.js';
import { PtyChannel } from './pty-channel.js';
import { assertSpawnable } from './spawn-check.js';
import {
  type PosixPtyOptions,
  type ResolvedSpawn,
  type ResolvedTimings,
  resolveSpawnOptions,
  resolveTimings,
} from './spawn-options.js';

const EOT = '\x04';

type KillTree = NonNullable<PosixPtyOptions['killTree']>;

/**
 * A program on a pseudo-terminal (Linux, macOS), over node-pty's native module. wait()
 * resolves only once every byte the program wrote has been delivered to onStdout.
 *
 * @example
 * const pty = await PtyAdapter.create({ command: 'ls --color=always', cols: 100 });
 * pty.onStdout((chunk) => process.stdout.write(chunk));
 * const { code, signal } = await pty.wait();
 */
export class PtyAdapter implements PtyProcessAdapter {
  readonly stdioMode = 'pty' as const;
  readonly pid: number;
  readonly backend: PtyBackendName;
  readonly stdin: PtyAdapterStdin;
  readonly #channel: PtyChannel;
  readonly #stdout = new OutputChannel();
  readonly #decoder = new StringDecoder('utf8');
  readonly #modes = new TerminalModeTracker();
  readonly #marker: string;
  readonly #exit: Promise<WaitResult>;
  #resolveExit!: (result: WaitResult) => void;
  #result: WaitResult | undefined;
  #forceTimer: NodeJS.Timeout | undefined;
  #disposed = false;

  /**
   * Validates the options, loads the backend (on first use), checks that cwd and the program
   * exist, and forks. Rejects with ERR_INVALID_OPTION, ERR_PROCESS_PTY_BACKEND or
   * ERR_PROCESS_SPAWN.
   */
  static async create(options: PosixPtyOptions = {}): Promise<PtyAdapter> {
    const spawn = resolveSpawnOptions(options);
    const timings = resolveTimings(options);
    const backend = await resolveBackend(options.backend);
    assertSpawnable(spawn);
    // The child closes what it inherited (other sessions' masters) before the program runs.
    const exec = closeInheritedDescriptors({ file: spawn.file, args: spawn.args, env: spawn.env });
    return new PtyAdapter(backend, { ...spawn, ...exec }, timings, options.killTree ?? killProcessTree);
  }

  private constructor(
    backend: PtyBackend,
    spawn: ResolvedSpawn,
    private readonly timings: ResolvedTimings,
    private readonly killTree: KillTree,
  ) {
    this.#exit = new Promise((resolve) => {
      this.#resolveExit = resolve;
    });
    this.backend = backend.name;
    this.#marker = spawn.marker;
    this.#channel = new PtyChannel(
      backend,
      spawn,
      {
        data: (chunk) => this.#output(this.#decoder.write(chunk)),
        finished: (code, signal) => {
          this.#output(this.#decoder.end());
          this.#settle(toWaitResult(code, signal));
        },
      },
      timings.drainTimeoutMs,
    );
    this.pid = this.#channel.pid;
    const modes = this.#modes;
    const channel = this.#channel;
    this.stdin = {
      write: (data) => channel.write(checkInput(data)),
      close: () => channel.write(EOT),
      get bracketedPasteEnabled() {
        return modes.bracketedPaste;
      },
    };
  }

  onStdout(listener: (chunk: string) => void): Disposer {
    return this.#stdout.on(listener);
  }

  /** A PTY merges stderr into stdout: this never fires. */
  onStderr(_listener: (chunk: string) => void): Disposer {
    return () => {};
  }

  wait(): Promise<WaitResult> {
    return this.#exit;
  }

  /**
   * 'graceful' sends SIGTERM to the program. 'force' (the default) tears its whole tree down
   * through @procmux/kill-posix: SIGTERM, then SIGKILL for what is left after killGraceMs
   * (3 s by default; a tree that honours SIGTERM is gone in milliseconds). If no exit is
   * reported 4 s after that, wait() settles as SIGKILL anyway. Does nothing once the program
   * has exited: its pid may already belong to another process.
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
    if (this.#channel.exited || this.#result !== undefined) return;
    if (mode === 'graceful') {
      signal(this.pid, 'SIGTERM');
      return;
    }
    try {
      await this.killTree(this.pid, { graceMs: this.timings.killGraceMs, marker: this.#marker });
    } finally {
      // Counted from the end of the tree kill, so a long grace never cuts the settle short.
      if (this.#forceTimer === undefined && !this.#disposed && this.#result === undefined) {
        this.#forceTimer = setTimeout(() => {
          this.#settle({ code: null, signal: 'SIGKILL' });
          this.#channel.dispose();
        }, this.timings.forceKillSettleMs);
      }
    }
  }

  /** Resizes the terminal; the program gets SIGWINCH. Ignored once the program has exited. */
  resize(cols: number, rows: number): void {
    checkSize('cols', cols, TERMINAL_COLUMNS_LIMIT.hard);
    checkSize('rows', rows, TERMINAL_ROWS_LIMIT.hard);
    if (!this.#disposed) this.#channel.resize(cols, rows);
  }

  /**
   * Releases listeners, timers and both PTY descriptors. Does not kill, but the program sees
   * its terminal hang up (SIGHUP). wait() still settles when the program exits.
   */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    if (this.#forceTimer !== undefined) clearTimeout(this.#forceTimer);
    this.#forceTimer = undefined;
    this.#stdout.dispose();
    this.#channel.dispose();
  }

  #output(text: string): void {
    if (text === '' || this.#disposed) return;
    this.#modes.feed(text);
    this.#stdout.emit(text);
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
 * Starts a program on a PTY: the PtyPlatformModule entry point the supervisor calls.
 * Same as `PtyAdapter.create(options)`.
 */
export function createPtyAdapter(options: PosixPtyOptions = {}): Promise<PtyAdapter> {
  return PtyAdapter.create(options);
}

async function resolveBackend(backend: PosixPtyOptions['backend']): Promise<PtyBackend> {
  if (typeof backend !== 'object' || backend === null) return loadPtyBackend({ prefer: backend });
  if (isPtyNativeModule(backend.native) && typeof backend.name === 'string') return backend;
  throw new ProcmuxError(
    'ERR_INVALID_OPTION',
    "backend must be 'auto', 'node-pty', 'homebridge' or a PtyBackend from loadPtyBackend()",
    { details: { option: 'backend' } },
  );
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

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    // ESRCH: it exited meanwhile, which is what was asked.
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}
