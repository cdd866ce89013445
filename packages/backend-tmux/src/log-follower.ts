// Follows a pane's byte log as it grows, from a byte offset, in order, exactly once.
import { closeSync, type FSWatcher, openSync, readSync, watch } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

/** The safety-net tick; fs.watch normally wakes the reader first (see README, Choices). */
export const FOLLOW_TICK_MS = 20;
/** One read buffer per follower, reused (a fresh 256 KiB buffer per wake-up was an mmap each time). */
const CHUNK = 64 * 1024;

export interface LogFollowerOptions {
  path: string;
  /** Byte offset to start from (0: the whole log). */
  offset: number;
  onData(data: string): void;
  /** Called on each tick, and on a change that brought no byte (exit checks hang off it). */
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
  #buffer: Buffer | undefined;
  #stopped = false;
  #soon = false;

  constructor(private readonly options: LogFollowerOptions) {
    this.#offset = options.offset;
  }

  /** Bytes of the log consumed so far. */
  get offset(): number {
    return this.#offset;
  }

  start(): void {
    try {
      this.#watcher = watch(this.options.path, { persistent: false }, () => this.#changed());
      this.#watcher.on('error', () => {});
    } catch {
      // No watcher (file not there yet, or the platform refuses): the timer still reads.
    }
    this.#timer = setInterval(() => this.#tick(), FOLLOW_TICK_MS);
    this.#timer.unref();
    this.#tick();
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
    this.#buffer ??= Buffer.allocUnsafe(CHUNK);
    const buffer = this.#buffer;
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
    this.#buffer = undefined;
  }

  /**
   * A change of the log: read once the current batch of watch events is through (one read for
   * many small appends, each of which fires an event). A change that brought no byte may be
   * the end: the exit checks run then; while bytes flow the tick runs them.
   */
  #changed(): void {
    if (this.#soon || this.#stopped) return;
    this.#soon = true;
    setImmediate(() => {
      this.#soon = false;
      if (this.#stopped) return;
      if (this.drain() === 0) this.options.onTick?.();
    });
  }

  #tick(): void {
    if (this.#stopped) return;
    this.drain();
    this.options.onTick?.();
  }
}
