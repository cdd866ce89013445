// Forks a program on a PTY through node-pty's native module and owns both ends, so that
// every byte the program wrote is read before the terminal is closed.
//
// Why not node-pty's UnixTerminal: on Linux, libuv treats POLLHUP after a short read as end
// of stream (uv__stream_io). On a PTY master a short read does not mean the buffer is empty,
// so when the program exits and the slave closes, the stream "ends" with kilobytes unread
// (`seq 1 100000; echo __END__` lost its tail in 47 of 200 runs here). The fix:
//   1. The parent opens the slave itself, so the master cannot hang up while we hold it.
//   2. On the native exit callback (the program is gone, all its writes are in the kernel),
//      we close our slave and read the master synchronously until EIO: Linux returns EIO only
//      once the buffer is drained. Everything is delivered before the terminal is closed.
//   3. If another process (a backgrounded grandchild) still holds the slave, the read says
//      EAGAIN instead; we keep reading as usual and close after a bounded drain.
import { closeSync, constants, openSync, readSync } from 'node:fs';
import { ReadStream } from 'node:tty';
import { ProcmuxError } from '@procmux/core-types';
import { MasterWriter } from './master-writer.js';
import type { PtyBackend } from './native.js';
import type { ResolvedSpawn } from './spawn-options.js';

/** What a channel reports. */
export interface PtyChannelHandlers {
  /** Raw output, in order. */
  data(chunk: Buffer): void;
  /**
   * Once: the program exited and everything it wrote has gone to data(). After dispose() it
   * still reports the exit, without output.
   */
  finished(exitCode: number, signal: number): void;
}

// Caps the synchronous read at exit: a grandchild that writes without pause must not hold
// the event loop (the rest is read asynchronously, within the drain bound).
const SWEEP_LIMIT_BYTES = 8 * 1024 * 1024;
const SWEEP_BUFFER_BYTES = 64 * 1024;

export class PtyChannel {
  readonly pid: number;
  readonly #fd: number;
  readonly #master: ReadStream;
  readonly #writer: MasterWriter;
  #slaveFd: number | undefined;
  #exit: { code: number; signal: number } | undefined;
  #streamEnded = false;
  #drainTimer: NodeJS.Timeout | undefined;
  #done = false;
  #disposed = false;

  /** Forks `spawn` on a new PTY. Throws ERR_PROCESS_SPAWN when the native fork fails. */
  constructor(
    private readonly backend: PtyBackend,
    spawn: ResolvedSpawn,
    private readonly handlers: PtyChannelHandlers,
    private readonly drainTimeoutMs: number,
  ) {
    let forked: ReturnType<PtyBackend['native']['fork']>;
    try {
      forked = backend.native.fork(
        spawn.file,
        spawn.args,
        Object.entries(spawn.env).map(([key, value]) => `${key}=${value}`),
        spawn.cwd,
        spawn.cols,
        spawn.rows,
        -1, // uid: unchanged
        -1, // gid: unchanged
        true, // UTF-8 input (IUTF8), so the line discipline erases whole characters
        backend.helperPath,
        (code, signal) => this.#onExit(code, signal),
      );
    } catch (error) {
      throw new ProcmuxError(
        'ERR_PROCESS_SPAWN',
        `could not start ${spawn.file} on a PTY (${backend.name} fork failed)`,
        {
          cause: error,
          details: { file: spawn.file, backend: backend.name },
        },
      );
    }
    this.pid = forked.pid;
    this.#fd = forked.fd;
    // Synchronously, before the event loop can poll the master: even a program that has
    // already exited leaves its output readable, and our open clears the hang-up.
    this.#slaveFd = openSlave(forked.pty);
    this.#writer = new MasterWriter(forked.fd, () => {
      // The master refused input (the terminal is gone): later writes are dropped with it.
    });
    this.#master = new ReadStream(forked.fd);
    this.#master.on('data', (chunk: Buffer) => this.handlers.data(chunk));
    // EIO is how a drained master reports the hang-up; any other error ends reading too.
    this.#master.on('error', () => this.#onStreamEnd());
    this.#master.on('end', () => this.#onStreamEnd());
    this.#master.on('close', () => this.#onStreamEnd());
  }

  /** True once the program's exit has been reported by the native module (its pid is reaped). */
  get exited(): boolean {
    return this.#exit !== undefined;
  }

  /** Sends input to the program; ignored once it has exited. */
  write(data: string | Uint8Array): void {
    if (this.#exit === undefined && !this.#disposed) this.#writer.write(data);
  }

  /** Sets the terminal size (the program gets SIGWINCH); ignored once it has exited. */
  resize(cols: number, rows: number): void {
    if (this.#exit === undefined && !this.#disposed && !this.#streamEnded) {
      this.backend.native.resize(this.#fd, cols, rows);
    }
  }

  /**
   * Closes both descriptors and stops reading. Does not kill: the program sees its terminal
   * hang up (SIGHUP), as when a terminal window closes. Its exit is still reported.
   */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#close();
  }

  #onExit(code: number, signal: number): void {
    this.#exit = { code, signal };
    if (this.#disposed) {
      this.#finish();
      return;
    }
    this.#closeSlave();
    if (!this.#streamEnded) this.#sweep();
    if (this.#streamEnded) {
      this.#finish();
      return;
    }
    this.#drainTimer = setTimeout(() => this.#finish(), this.drainTimeoutMs);
  }

  /** Reads whatever the kernel holds until EIO (drained and hung up) or EAGAIN (still held). */
  #sweep(): void {
    const buffer = Buffer.allocUnsafe(SWEEP_BUFFER_BYTES);
    // A listener may dispose of the adapter from inside data(): stop before the closed fd.
    for (let total = 0; total < SWEEP_LIMIT_BYTES && !this.#disposed; ) {
      let count: number;
      try {
        count = readSync(this.#fd, buffer, 0, buffer.byteLength, null);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') this.#streamEnded = true;
        return;
      }
      if (count === 0) {
        this.#streamEnded = true;
        return;
      }
      total += count;
      this.handlers.data(Buffer.from(buffer.subarray(0, count)));
    }
  }

  #onStreamEnd(): void {
    // Once the stream has ended, Node closes the descriptor: never read or write it again.
    this.#streamEnded = true;
    this.#writer.close();
    if (this.#exit !== undefined && !this.#disposed) this.#finish();
  }

  #finish(): void {
    if (this.#done) return;
    this.#done = true;
    this.#close();
    const exit = this.#exit!;
    this.handlers.finished(exit.code, exit.signal);
  }

  #close(): void {
    if (this.#drainTimer !== undefined) clearTimeout(this.#drainTimer);
    this.#drainTimer = undefined;
    this.#writer.close();
    this.#closeSlave();
    this.#master.destroy();
  }

  #closeSlave(): void {
    if (this.#slaveFd === undefined) return;
    const fd = this.#slaveFd;
    this.#slaveFd = undefined;
    try {
      closeSync(fd);
    } catch {
      // Already closed: nothing held.
    }
  }
}

// O_NOCTTY: the slave must not become this process's controlling terminal. O_NONBLOCK: we
// never read or write it, and a blocking descriptor could stall on a stopped terminal.
function openSlave(path: string): number | undefined {
  try {
    return openSync(path, constants.O_RDWR | constants.O_NOCTTY | constants.O_NONBLOCK);
  } catch {
    // Without the hold the output is still read; only the early hang-up is not prevented.
    return undefined;
  }
}
