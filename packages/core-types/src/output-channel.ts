import type { Disposer, OutputListener } from './process.js';

type Listener = OutputListener;

/**
 * One output stream's listeners. Chunks emitted before the first listener attaches are kept
 * and handed to that listener on a microtask (after `on()` has returned its disposer, before
 * any later I/O), so nothing is lost between spawn and subscription and order is kept.
 */
export class OutputChannel {
  #listeners = new Set<Listener>();
  #pending: string[] | undefined = [];
  #flushing = false;
  #disposed = false;

  on(listener: Listener): Disposer {
    if (this.#disposed) return () => {};
    const entry: Listener = (chunk, bytes) => listener(chunk, bytes);
    this.#listeners.add(entry);
    if (this.#pending !== undefined && !this.#flushing) {
      this.#flushing = true;
      queueMicrotask(() => this.#flush());
    }
    return () => {
      this.#listeners.delete(entry);
    };
  }

  /** `bytes`, when given, are exactly `chunk`'s UTF-8 encoding (see OutputListener). */
  emit(chunk: string, bytes?: Uint8Array): void {
    if (this.#disposed || chunk === '') return;
    if (this.#pending !== undefined) {
      // Held chunks are joined into one: their bytes are not kept.
      this.#pending.push(chunk);
      return;
    }
    deliver(this.#listeners, chunk, bytes);
  }

  /** Drops listeners and anything still held. */
  dispose(): void {
    this.#disposed = true;
    this.#listeners.clear();
    this.#pending = undefined;
  }

  #flush(): void {
    const pending = this.#pending;
    this.#flushing = false;
    if (pending === undefined || this.#disposed) return;
    // A listener that attached and left before the microtask ran leaves the buffer for the next.
    if (this.#listeners.size === 0) return;
    this.#pending = undefined;
    const joined = pending.join('');
    if (joined !== '') deliver(this.#listeners, joined);
  }
}

// A throwing listener must not break delivery to the others or the adapter's own state
// (the drain runs inside these calls); its error still surfaces, as an uncaught exception.
function deliver(listeners: ReadonlySet<Listener>, chunk: string, bytes?: Uint8Array): void {
  for (const listener of [...listeners]) {
    try {
      listener(chunk, bytes);
    } catch (error) {
      queueMicrotask(() => {
        throw error;
      });
    }
  }
}
