import { write } from 'node:fs';

const MAX_BACKOFF_MS = 50;

/**
 * Writes to the (non-blocking) PTY master in order. The kernel takes what fits; the rest
 * waits until the program reads its input, so a large paste is neither lost nor blocks a thread. Like
 * node-pty's own writer, this bypasses tty.WriteStream, which hides EAGAIN.
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
    const head = this.#queue[0];
    if (this.#closed || head === undefined) {
      this.#busy = false;
      return;
    }
    this.#busy = true;
    write(this.fd, head, 0, head.byteLength, null, (error, written) => {
      if (this.#closed) return;
      if (error?.code === 'EAGAIN') {
        // The program is not reading its input: back off instead of spinning.
        this.#backoffMs = Math.min(Math.max(this.#backoffMs * 2, 1), MAX_BACKOFF_MS);
        this.#retry = setTimeout(() => this.#next(), this.#backoffMs);
        return;
      }
      this.#backoffMs = 0;
      if (error) {
        this.#queue = [];
        this.#busy = false;
        this.onError(error);
        return;
      }
      if (written >= head.byteLength) this.#queue.shift();
      else this.#queue[0] = head.subarray(written);
      this.#next();
    });
  }
}
