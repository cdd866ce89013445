import { invalidOption, type KillMode, Utf8ChunkDecoder } from '@procmux/core-types';
import { killProcessTree } from '@procmux/kill-posix';
import { PtyAdapterBase } from '@procmux/pty-core';
import { closeInheritedDescriptors } from '@procmux/shell-wrap';
import { toWaitResult } from './exit-status.js';
import { hangUpTerminal, startTimeOf, stillRunning, systemHangUpEffects } from './hang-up.js';
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

type KillTree = NonNullable<PosixPtyOptions['killTree']>;

/**
 * A program on a pseudo-terminal (Linux, macOS), over node-pty's native module. wait()
 * resolves only once every byte the program wrote has been delivered to onStdout. What all
 * PTY adapters share (checks, stdin, settle-once, the force-settle timer) is PtyAdapterBase;
 * this class is the POSIX spawn, kill, hang-up and release.
 *
 * @example
 * const pty = await PtyAdapter.create({ command: 'ls --color=always', cols: 100 });
 * pty.onStdout((chunk) => process.stdout.write(chunk));
 * const { code, signal } = await pty.wait();
 */
export class PtyAdapter extends PtyAdapterBase {
  readonly pid: number;
  readonly backend: PtyBackendName;
  readonly #channel: PtyChannel;
  readonly #decoder = new Utf8ChunkDecoder();
  readonly #marker: string;
  readonly #killTree: KillTree;
  // Who this.pid is (Linux): a hang-up never reaches a later process given the same number.
  readonly #startedAt: string | undefined;

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
    timings: ResolvedTimings,
    killTree: KillTree,
  ) {
    super(timings);
    this.backend = backend.name;
    this.#marker = spawn.marker;
    this.#killTree = killTree;
    this.#channel = new PtyChannel(
      backend,
      spawn,
      {
        data: (chunk) => {
          const text = this.#decoder.write(chunk);
          // An ASCII chunk's bytes go along, as a pipe's do (ChildAdapter).
          this.output(text, this.#decoder.lastWasAscii ? chunk : undefined);
        },
        finished: (code, signal) => {
          this.output(this.#decoder.end());
          this.settle(toWaitResult(code, signal));
        },
      },
      timings.drainTimeoutMs,
    );
    this.pid = this.#channel.pid;
    this.#startedAt = startTimeOf(this.pid, systemHangUpEffects);
  }

  /**
   * 'graceful' sends SIGTERM to the program. 'force' (the default) tears its whole tree down
   * through @procmux/kill-posix: SIGTERM, then SIGKILL for what is left after killGraceMs
   * (3 s by default; a tree that honours SIGTERM is gone in milliseconds). If no exit is
   * reported 4 s after that, wait() settles as SIGKILL anyway.
   */
  override kill(mode: KillMode = 'force'): Promise<void> {
    return super.kill(mode);
  }

  /**
   * Releases listeners, timers and both PTY descriptors. Does not kill, but the program sees
   * its terminal hang up (SIGHUP). wait() still settles when the program exits.
   */
  override dispose(): void {
    super.dispose();
  }

  protected get exited(): boolean {
    return this.#channel.exited;
  }

  protected writeInput(data: string | Uint8Array): void {
    this.#channel.write(data);
  }

  protected killGracefully(): void {
    // Reaped before its exit was reported: the number may be another process's by now.
    if (!stillRunning(this.pid, this.#startedAt, systemHangUpEffects)) return;
    signal(this.pid, 'SIGTERM');
  }

  // The foreground job and the shell get SIGHUP, as when a terminal window closes.
  protected hangUpTerminal(): boolean {
    return hangUpTerminal(this.pid, systemHangUpEffects, this.#startedAt).length > 0;
  }

  protected killTree(graceMs: number): Promise<unknown> {
    return this.#killTree(this.pid, { graceMs, marker: this.#marker });
  }

  protected resizeTerminal(cols: number, rows: number): void {
    this.#channel.resize(cols, rows);
  }

  protected release(): void {
    this.#channel.dispose();
  }

  // The exit never came: stop reading a terminal nobody will hear from.
  protected override forceSettled(): void {
    this.#channel.dispose();
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
  throw invalidOption('backend', "'auto', 'node-pty', 'homebridge' or a PtyBackend from loadPtyBackend()");
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    // ESRCH: it exited meanwhile, which is what was asked.
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}
