import { writeSync } from 'node:fs';

const MAX_BACKOFF_MS = 50;

/**
 * Writes to the (non-blocking) PTY master in order. The kernel takes what fits; the rest
 * waits until the program reads its input, so a large paste is neither lost nor blocks a thread. Like
 * node-pty's own writer, this bypasses tty.WriteStream, which hides EAGAIN.
 *
 * Synchronous writes on purpose: an fs.write queued on the thread pool still runs after its
 * owner closed the descriptor, and by then the number may name another session's terminal or
 * a file opened since. A write here happens only while the writer is open, on this thread.
 */
export class MasterWriter {
  #queue: Buffer[] = [];
  #busy = false;
  #retry: NodeJS.Timeout | undefined;
  #backoffMs = 0;
  #closed = false;

  constructor(
    private readonly fd: number,
    private readonly onError: (error: NodeJS.ErrnoException) => void,
  ) {}

  write(data: string | Uint8Array): void {
    if (this.#closed) return;
    const buffer = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data);
    if (buffer.byteLength === 0) return;
    this.#queue.push(buffer);
    if (!this.#busy) this.#next();
  }

  /** Drops what is still queued; nothing is written to the descriptor afterwards. */
  close(): void {
    this.#closed = true;
    this.#queue = [];
    if (this.#retry !== undefined) clearTimeout(this.#retry);
    this.#retry = undefined;
  }

  #next(): void {
    this.#retry = undefined;
    for (;;) {
      const head = this.#queue[0];
      if (this.#closed || head === undefined) {
        this.#busy = false;
        return;
      }
      this.#busy = true;
      let written: number;
      try {
        written = writeSync(this.fd, head, 0, head.byteLength);
      } catch (error) {
        const failure = error as NodeJS.ErrnoException;
        if (failure.code === 'EAGAIN') {
          // The program is not reading its input: back off instead of spinning.
          this.#backoffMs = Math.min(Math.max(this.#backoffMs * 2, 1), MAX_BACKOFF_MS);
          this.#retry = setTimeout(() => this.#next(), this.#backoffMs);
          return;
        }
        this.#queue = [];
        this.#busy = false;
        this.onError(failure);
        return;
      }
      this.#backoffMs = 0;
      if (written >= head.byteLength) this.#queue.shift();
      else this.#queue[0] = head.subarray(written);
    }
  }
}
