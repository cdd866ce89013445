// Follows a pane's byte log as it grows, from a byte offset, in order, exactly once.
import { closeSync, type FSWatcher, openSync, readSync, watch } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

/** The safety-net tick; fs.watch normally wakes the reader first (see README, Choices). */
export const FOLLOW_TICK_MS = 20;
const CHUNK = 256 * 1024;

export interface LogFollowerOptions {
  path: string;
  /** Byte offset to start from (0: the whole log). */
  offset: number;
  onData(data: string): void;
  /** Called on every wake-up after the log was read (exit checks hang off it). */
  onTick?(): void;
}

/**
 * Reads `path` from `offset` whenever it changes (fs.watch) and on a short timer; decodes
 * UTF-8 across chunk boundaries, so a character split between two writes is emitted whole.
 */
export class LogFollower {
  #fd: number | undefined;
  #offset: number;
  #watcher: FSWatcher | undefined;
  #timer: NodeJS.Timeout | undefined;
  readonly #decoder = new StringDecoder('utf8');
  #stopped = false;

  constructor(private readonly options: LogFollowerOptions) {
    this.#offset = options.offset;
  }

  /** Bytes of the log consumed so far. */
  get offset(): number {
    return this.#offset;
  }

  start(): void {
    try {
      this.#watcher = watch(this.options.path, { persistent: false }, () => this.#wake());
      this.#watcher.on('error', () => {});
    } catch {
      // No watcher (file not there yet, or the platform refuses): the timer still reads.
    }
    this.#timer = setInterval(() => this.#wake(), FOLLOW_TICK_MS);
    this.#timer.unref();
    this.#wake();
  }

  /** Reads everything written so far; returns how many bytes it read. */
  drain(): number {
    if (this.#stopped) return 0;
    if (this.#fd === undefined) {
      try {
        this.#fd = openSync(this.options.path, 'r');
      } catch {
        return 0;
      }
    }
    const buffer = Buffer.allocUnsafe(CHUNK);
    let total = 0;
    for (;;) {
      let n: number;
      try {
        n = readSync(this.#fd, buffer, 0, CHUNK, this.#offset);
      } catch {
        return total;
      }
      if (n <= 0) return total;
      this.#offset += n;
      total += n;
      const text = this.#decoder.write(buffer.subarray(0, n));
      if (text !== '') this.options.onData(text);
    }
  }

  /** Reads the rest, flushes a trailing partial character, and stops. */
  finish(): void {
    this.drain();
    this.stop();
    const rest = this.#decoder.end();
    if (rest !== '') this.options.onData(rest);
  }

  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#watcher?.close();
    if (this.#timer) clearInterval(this.#timer);
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }

  #wake(): void {
    if (this.#stopped) return;
    this.drain();
    this.options.onTick?.();
  }
}
