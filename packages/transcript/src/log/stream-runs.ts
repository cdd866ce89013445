// Which stream each byte of the log came from, as runs: a run starts wherever the stream
// changes. A flood on one stream is one run however many chunks it arrives in.

/** Which stream a chunk came from. */
export type OutputStream = 'stdout' | 'stderr';

// Compact once this many dropped slots sit at the front and they are at least half the arrays.
const COMPACT_AFTER = 1024;

/** A deque of runs in parallel arrays with a head index: adding and dropping are amortised O(1). */
export class StreamRuns {
  private starts: number[] = [];
  private streams: OutputStream[] = [];
  private head = 0;

  /** Number of runs held. */
  get length(): number {
    return this.starts.length - this.head;
  }

  /** Bytes from `start` on came from `stream` (start never decreases). */
  add(start: number, stream: OutputStream): void {
    if (this.length > 0 && this.streams[this.streams.length - 1] === stream) return;
    this.starts.push(start);
    this.streams.push(stream);
  }

  /** Drops the runs that end at or before `offset`; the newest run always stays. */
  discardBefore(offset: number): void {
    while (this.length > 1 && this.starts[this.head + 1]! <= offset) this.head += 1;
    if (this.head >= COMPACT_AFTER && this.head * 2 >= this.starts.length) {
      this.starts.splice(0, this.head);
      this.streams.splice(0, this.head);
      this.head = 0;
    }
  }

  /** Absolute offset of run i's first byte (the oldest run's may precede what is retained). */
  start(i: number): number {
    return this.starts[this.head + i]!;
  }

  /** Where run i ends: the next run's start, or `total` for the newest. */
  end(i: number, total: number): number {
    return i + 1 < this.length ? this.starts[this.head + i + 1]! : total;
  }

  stream(i: number): OutputStream {
    return this.streams[this.head + i]!;
  }

  /**
   * Index of the run holding absolute byte `offset` (the last run starting at or before it).
   * The caller guarantees at least one run and offset >= start(0).
   */
  indexOf(offset: number): number {
    let low = 0;
    let high = this.length - 1;
    // Drains and tail reads land in the newest run; answer those without a search.
    if (this.start(high) <= offset) return high;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if (this.start(mid) <= offset) low = mid;
      else high = mid - 1;
    }
    return low;
  }
}
