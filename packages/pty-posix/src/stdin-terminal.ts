// A terminal for a pipe child's stdin only: the child's stdout and stderr stay pipes (clean,
// apart), but isatty(0) holds, so programs that prompt only on a terminal (bash `read -p`,
// getpass) print their prompt, and `read -s` can turn echo off where procmux can see it.
import { closeSync, constants, openSync, readSync } from 'node:fs';
import { ReadStream } from 'node:tty';
import { ProcmuxError, type StdinTerminal, Utf8ChunkDecoder } from '@procmux/core-types';
import { loadPtyBackend } from './load-backend.js';
import { MasterWriter } from './master-writer.js';

/** VEOF's default: at the start of a line, a canonical-mode read returns 0 (end of input). */
const EOT = '\x04';

export type { StdinTerminal };

export interface OpenStdinTerminalOptions {
  /** Default: loadPtyBackend()'s native module. Injected by tests. */
  open?: (cols: number, rows: number) => { master: number; slave: number; pty: string };
}

/**
 * Opens a pseudo-terminal pair without spawning anything. node-pty's openpty leaves both ends
 * non-blocking and inheritable: the slave is reopened by path (Node opens close-on-exec, and
 * blocking, so the child's reads block as on any terminal) and node-pty's copy closed at once.
 * This process holds that slave until exited(), as PtyChannel does: a program that closes its
 * stdin and runs on must not see its terminal hang up (see StdinTerminal.exited). The master
 * stays inheritable, so children must close what they inherit (shell-wrap's
 * closeInheritedDescriptors, which every built-in adapter applies). What arrives on the
 * master is always read, so the child never blocks on it: until the first byte is typed it is
 * what the program wrote to its terminal (a bash child makes it its controlling terminal, so
 * getpass prompts there) and goes to onOutput(); after that it mixes in the echo and is dropped.
 * Rejects with ERR_PROCESS_PTY_BACKEND when no PTY can be opened.
 */
export async function openStdinTerminal(options: OpenStdinTerminalOptions = {}): Promise<StdinTerminal> {
  let open = options.open;
  if (!open) {
    const backend = await loadPtyBackend();
    const native = backend.native;
    if (typeof native.open !== 'function') {
      throw new ProcmuxError(
        'ERR_PROCESS_PTY_BACKEND',
        `${backend.name} has no native open(); install node-pty 1.x`,
      );
    }
    open = native.open.bind(native);
  }
  let pair: { master: number; slave: number; pty: string };
  try {
    pair = open(80, 24);
  } catch (cause) {
    throw new ProcmuxError('ERR_PROCESS_PTY_BACKEND', 'could not open a pseudo-terminal for stdin', {
      cause,
    });
  }
  let slaveFd: number;
  try {
    slaveFd = openSync(pair.pty, constants.O_RDWR | constants.O_NOCTTY);
  } catch (cause) {
    closeQuietly(pair.master);
    throw new ProcmuxError('ERR_PROCESS_PTY_BACKEND', `could not open ${pair.pty} for stdin`, { cause });
  } finally {
    closeQuietly(pair.slave);
  }
  // Half-open: libuv reports end of stream on a POLLHUP after a short read, with bytes still
  // in the kernel (see pty-channel.ts); the descriptor must stay open to read them.
  const master = new ReadStream(pair.master, { allowHalfOpen: true });
  // In order and never blocking a thread; an error (the child gone) drops the rest.
  const writer = new MasterWriter(pair.master, () => writer.close());
  // EIO once every slave holder is gone (this process lets go of its copy only at exited()):
  // nothing more will come. The stream has closed the master by then, and its number is free
  // for the next open: nothing may be written to it.
  master.on('error', () => writer.close());
  master.on('close', () => writer.close());
  const listeners = new Set<(text: string) => void>();
  const decoder = new Utf8ChunkDecoder();
  let typed = false;
  let closed = false;
  const show = (chunk: Buffer) => {
    if (typed || listeners.size === 0) return;
    const text = decoder.write(chunk);
    if (text !== '') for (const listener of listeners) listener(text);
  };
  master.on('data', show);
  const drained = new Promise<void>((resolve) => {
    master.once('error', () => resolve());
    master.once('close', () => resolve());
    master.once('end', () => {
      if (!closed) sweep(pair.master, show);
      resolve();
    });
  });
  let slaveOpen = true;
  const closeSlave = () => {
    if (!slaveOpen) return;
    slaveOpen = false;
    closeQuietly(slaveFd);
  };
  return {
    slaveFd,
    path: pair.pty,
    exited: closeSlave,
    write(data) {
      if (closed) return;
      if (data.length > 0) typed = true;
      writer.write(data);
    },
    endInput() {
      if (!closed) writer.write(EOT);
    },
    drained: () => drained,
    onOutput(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      closeSlave();
      listeners.clear();
      if (closed) return;
      closed = true;
      writer.close();
      master.destroy();
    },
  };
}

// Caps the synchronous read: a grandchild still writing must not hold the event loop.
const SWEEP_LIMIT_BYTES = 8 * 1024 * 1024;

/** Reads what the kernel still holds for the master until EIO (drained) or EAGAIN (still held). */
function sweep(fd: number, deliver: (chunk: Buffer) => void): void {
  const buffer = Buffer.allocUnsafe(64 * 1024);
  for (let total = 0; total < SWEEP_LIMIT_BYTES; ) {
    let n: number;
    try {
      n = readSync(fd, buffer, 0, buffer.length, null);
    } catch {
      return;
    }
    if (n <= 0) return;
    deliver(Buffer.from(buffer.subarray(0, n)));
    total += n;
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already closed: nothing to do.
  }
}
