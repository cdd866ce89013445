/** Hands one chunk to the parser and calls `done` once it has been parsed. */
export type ParserWrite = (chunk: string, done: () => void) => void;

interface Waiter {
  target: number;
  resolve: () => void;
  reject: (reason: Error) => void;
}

/**
 * Feeds chunks to an asynchronous parser in order and tells when a given chunk has been parsed.
 * xterm.js throws away input (with an exception) once 50 MB wait unparsed, so chunks beyond
 * `highWater` characters in flight wait here instead and go on as the parser catches up:
 * `push` never fails and never drops.
 */
export class ParseQueue {
  private accepted = 0;
  private parsed = 0;
  private inFlight = 0;
  private backlog: string[] = [];
  private backlogHead = 0;
  private waiters: Waiter[] = [];
  private closedWith: Error | undefined;

  constructor(
    private readonly write: ParserWrite,
    private readonly highWater: number,
  ) {}

  /** Accepts a chunk; it is parsed after every chunk accepted before it. */
  push(chunk: string): void {
    this.accepted++;
    if (this.backlogHead === this.backlog.length && this.fits(chunk)) this.send(chunk);
    else this.backlog.push(chunk);
  }

  /** Resolves once every chunk accepted so far has been parsed; rejects if the queue closes first. */
  idle(): Promise<void> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    if (this.parsed >= this.accepted) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiters.push({ target: this.accepted, resolve, reject });
    });
  }

  /** Whether every chunk accepted so far has been parsed, now. */
  get isIdle(): boolean {
    return this.parsed >= this.accepted;
  }

  /** Chunks accepted but not yet handed to the parser. */
  get backlogLength(): number {
    return this.backlog.length - this.backlogHead;
  }

  /** Stops: pending `idle()` promises reject with `reason`, queued chunks are released. */
  close(reason: Error): void {
    if (this.closedWith) return;
    this.closedWith = reason;
    this.backlog = [];
    this.backlogHead = 0;
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter.reject(reason);
  }

  // A chunk bigger than highWater still goes alone once nothing else is in flight.
  private fits(chunk: string): boolean {
    return this.inFlight === 0 || this.inFlight + chunk.length <= this.highWater;
  }

  private send(chunk: string): void {
    this.inFlight += chunk.length;
    this.write(chunk, () => this.onParsed(chunk.length));
  }

  private onParsed(length: number): void {
    if (this.closedWith) return;
    this.inFlight -= length;
    this.parsed++;
    while (this.backlogHead < this.backlog.length && this.fits(this.backlog[this.backlogHead]!)) {
      const chunk = this.backlog[this.backlogHead]!;
      this.backlog[this.backlogHead++] = '';
      this.send(chunk);
    }
    if (this.backlogHead === this.backlog.length) {
      this.backlog = [];
      this.backlogHead = 0;
    }
    let done = 0;
    while (done < this.waiters.length && this.waiters[done]!.target <= this.parsed) done++;
    if (done === 0) return;
    const ready = this.waiters.splice(0, done);
    for (const waiter of ready) waiter.resolve();
  }
}
