// The log's storage once history outgrows its memory window: the newest bytes in memory
// blocks (ByteStore), the older ones in a spill file, one address space over both. Whole
// blocks move to the file as the window fills, written off the hot path in batches (a block
// stays in memory, and is read from there, until its write completed), and a page of old
// history costs one positioned read.
import { ByteStore, isContinuation } from './byte-store.js';
import { SpillFile, type SpillFileSystem } from './spill-file.js';

export interface TieredStoreOptions {
  /** Buffer memory the store may hold, spare blocks included; Infinity: never spill. */
  memoryBytes: number;
  /** The history cap: the most the file ever holds (plus a block). */
  retainedBytes: number;
  dir: string;
  fs: SpillFileSystem;
}

// Blocks are a sixteenth of the window (at most 1 MiB): the held bytes, the newest block's
// unused end, the oldest block's discarded start, two spares and the blocks queued for the
// file then fit the window.
const BLOCKS_PER_WINDOW = 16;
const FIRST_BLOCK_BYTES = 16 * 1024;
const MAX_BLOCK_BYTES = 1024 * 1024;
const SLACK_BLOCKS = 4;
// Blocks whose write may be in flight at once; beyond that a block is written synchronously.
const QUEUED_BLOCKS = 4;

export class TieredStore {
  private readonly hot: ByteStore;
  private readonly file: SpillFile | undefined;
  // Held bytes above which the oldest block goes to the file.
  private readonly hotLimit: number;
  private coldStart = 0;
  private coldEnd = 0;
  // Spilled ranges known to be all ASCII, oldest first, contiguous ones merged: every offset
  // in them is a character boundary, so cutting the history there reads nothing back from the
  // file (a 1-byte read per append once a flood passed the cap: 6-17 ms per 200 MB).
  private asciiRanges: { start: number; end: number }[] = [];
  private failure: Error | undefined;
  private closed = false;

  constructor(options: TieredStoreOptions) {
    const spills = Number.isFinite(options.memoryBytes) && options.memoryBytes < options.retainedBytes;
    const maxBlockBytes = spills
      ? Math.max(4, Math.min(MAX_BLOCK_BYTES, Math.floor(options.memoryBytes / BLOCKS_PER_WINDOW)))
      : Math.min(MAX_BLOCK_BYTES, options.retainedBytes);
    this.hot = new ByteStore({ minBlockBytes: FIRST_BLOCK_BYTES, maxBlockBytes });
    this.hotLimit = spills
      ? options.memoryBytes - (SLACK_BLOCKS + QUEUED_BLOCKS) * maxBlockBytes
      : Number.POSITIVE_INFINITY;
    this.file = spills
      ? new SpillFile({
          dir: options.dir,
          capacity: options.retainedBytes + maxBlockBytes,
          queueBytes: QUEUED_BLOCKS * maxBlockBytes,
          fs: options.fs,
          release: (bytes) => this.hot.reuse(bytes),
          onFailure: (error) => this.fail(error),
        })
      : undefined;
  }

  /** Absolute offset of the oldest byte held, in the file or in memory. */
  get start(): number {
    return this.coldStart < this.coldEnd ? this.coldStart : this.hot.start;
  }

  /** Where memory begins: offsets below it are read from the file. */
  get memoryStart(): number {
    return this.hot.start;
  }

  /** Offset just past the newest byte in the file (or queued for it). */
  get diskEnd(): number {
    return this.coldEnd;
  }

  /** Bytes queued for the file whose write has not completed: still in memory. */
  get queuedBytes(): number {
    return this.file?.queuedBytes ?? 0;
  }

  /** Settles once no spill write is in flight (and a closed file is closed). */
  idle(): Promise<void> {
    return this.file?.idle() ?? Promise.resolve();
  }

  get diskStart(): number {
    return this.coldStart;
  }

  /** Why spilling stopped (a full disk...), once it did: older history is then dropped. */
  get spillError(): Error | undefined {
    return this.failure;
  }

  append(text: string): number {
    const size = this.hot.append(text);
    this.settle();
    return size;
  }

  /** `ascii`: the caller knows every byte is ASCII. */
  appendBytes(bytes: Uint8Array, ascii = false): void {
    this.hot.appendBytes(bytes, ascii);
    this.settle();
  }

  skipTo(offset: number): void {
    // A fresh file: a write of the old history still in flight must not land on the new.
    this.file?.reset();
    this.hot.skipTo(offset);
    this.coldStart = offset;
    this.coldEnd = offset;
    this.asciiRanges = [];
  }

  discardBefore(offset: number): void {
    this.hot.discardBefore(offset);
    this.coldStart = Math.max(this.coldStart, Math.min(offset, this.coldEnd));
    let gone = 0;
    while (gone < this.asciiRanges.length && this.asciiRanges[gone]!.end <= this.coldStart) gone += 1;
    if (gone > 0) this.asciiRanges.splice(0, gone);
  }

  /** The byte at `offset` when memory holds it (the file is never read for it), else undefined. */
  memoryByte(offset: number): number | undefined {
    return offset >= this.hot.start && offset < this.hot.end ? this.hot.byteAt(offset) : undefined;
  }

  ceil(offset: number): number {
    if (offset < this.hot.start && this.inAscii(offset)) return offset;
    let at = offset;
    while (at < this.hot.end && isContinuation(this.byteAt(at))) at += 1;
    return at;
  }

  floor(offset: number, floor: number): number {
    if (offset < this.hot.start && this.inAscii(offset)) return offset;
    let at = offset;
    while (at > floor && at < this.hot.end && isContinuation(this.byteAt(at))) at -= 1;
    return at;
  }

  /** The text of bytes [from, to): both held character boundaries. */
  decode(from: number, to: number): string {
    const memory = this.hot.start;
    if (from >= memory || from >= to) return this.hot.decode(from, to);
    const mid = Math.min(to, memory);
    // Block edges are character boundaries, so each side decodes on its own.
    const old = this.file!.read(from, mid).toString('utf8');
    return mid < to ? old + this.hot.decode(mid, to) : old;
  }

  /** The bytes [from, to), held, from the file and memory alike, copied into `into` (its start). */
  bytes(from: number, to: number, into: Buffer): Buffer {
    const out = into.subarray(0, to - from);
    const memory = this.hot.start;
    const mid = Math.max(from, Math.min(to, memory));
    if (from < mid) this.file!.read(from, mid, out);
    this.hot.copy(mid, to, out.subarray(mid - from));
    return out;
  }

  /**
   * For a log no more output comes to: when history already spills, every block but the
   * newest goes to the file (queued ones are freed once written) and no spare blocks are
   * kept. An ended session that flooded otherwise held its whole window (4 MiB by default)
   * for as long as it stayed registered. Appending after it still works.
   */
  compact(): void {
    if (this.file === undefined || this.closed || this.failure !== undefined) return;
    if (this.coldStart === this.coldEnd) return;
    while (this.hot.dropOldest((start, bytes, ascii) => this.spill(start, bytes, ascii))) {}
    this.hot.dropSpares();
  }

  /** Frees the file: its history is gone, and from now on older blocks are dropped. */
  close(): void {
    this.closed = true;
    this.file?.close();
    this.coldStart = this.coldEnd;
  }

  private inAscii(offset: number): boolean {
    const ranges = this.asciiRanges;
    let low = 0;
    let high = ranges.length - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const range = ranges[mid]!;
      if (offset < range.start) high = mid - 1;
      else if (offset >= range.end) low = mid + 1;
      else return offset >= this.coldStart;
    }
    return false;
  }

  private byteAt(offset: number): number {
    return offset >= this.hot.start ? this.hot.byteAt(offset) : this.file!.read(offset, offset + 1)[0]!;
  }

  // Moves the oldest blocks to the file until memory is back within the window.
  private settle(): void {
    while (
      this.hot.end - this.hot.start > this.hotLimit &&
      this.hot.dropOldest((s, b, ascii) => this.spill(s, b, ascii))
    ) {}
  }

  // Hands the oldest block to the file; true when the file took its bytes.
  private spill(start: number, bytes: Buffer, ascii: boolean): boolean {
    const end = start + bytes.length;
    if (this.coldEnd !== start) {
      this.coldStart = start;
      this.asciiRanges = [];
    }
    if (this.failure === undefined && !this.closed && this.file!.enqueue(start, bytes)) {
      this.coldEnd = end;
      const last = this.asciiRanges[this.asciiRanges.length - 1];
      if (ascii && last?.end === start) last.end = end;
      else if (ascii) this.asciiRanges.push({ start, end });
      return true;
    }
    this.coldStart = end;
    this.coldEnd = end;
    this.asciiRanges = [];
    return false;
  }

  // A full disk ends spilling for this log (never the host): the file's history, queued
  // blocks included, goes; the log accounts for it as dropped, and spillError says why.
  private fail(error: Error): void {
    this.failure = error;
    this.coldStart = this.coldEnd;
  }
}
