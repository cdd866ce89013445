// Poll waiters: a poll() with a timeout parks here and wakes on the next output, the
// program starting to wait for input, or the end, never on a tick.
export class PollWaiters {
  readonly #waiters = new Set<() => void>();

  get size(): number {
    return this.#waiters.size;
  }

  /** Resolves at the next wake() or after timeoutMs, whichever comes first. */
  next(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.#waiters.add(done);
    });
  }

  wake(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }
}
