import {
  OUTPUT_CHUNK_BYTES_LIMIT,
  OUTPUT_MEMORY_BYTES_LIMIT,
  OUTPUT_TOTAL_BYTES_LIMIT,
  resolveLimit,
  TAIL_CHARS,
  UNDRAINED_BYTES_LIMIT,
} from '@procmux/core-types';
import { isContinuation } from './byte-store.js';
import { defaultSpillDir, nodeSpillFileSystem, type SpillFileSystem } from './spill-file.js';
import { type OutputStream, StreamRuns } from './stream-runs.js';
import { TieredStore } from './tiered-store.js';
import { lastCharacters, wellFormed } from './utf8.js';
import { assertChunk, assertChunkBytes, assertStream, resolveCursor } from './validate.js';

export interface OutputLogOptions {
  /** History kept, in UTF-8 bytes (default 64 MiB, at most 1 GiB); the oldest goes first. */
  maxRetainedBytes?: number;
  /** Output held for the next drain() (default 30,000, at most 1 GiB; capped by maxRetainedBytes). */
  maxUndrainedBytes?: number;
  /** Largest page read() returns, and its default (default 50 KiB, from 4 bytes to 1 MiB). */
  maxChunkBytes?: number;
  /**
   * Memory the history may take (default 4 MiB, from 64 KiB to 1 GiB); the older history
   * goes to a spill file and is paged from there. At or above maxRetainedBytes nothing spills.
   */
  memoryBytes?: number;
  /** Where the spill file goes (default: `procmux-output` in the OS temp dir). */
  spillDir?: string;
  /** The spill file's operations (tests inject a full disk). */
  spillFileSystem?: SpillFileSystem;
}

export interface OutputReadOptions {
  /** Absolute byte offset to read from (default 0): 0 to totalBytes. */
  cursor?: number;
  /** Most bytes to return: 4 to maxChunkBytes (default maxChunkBytes). */
  maxBytes?: number;
  /** Only this stream's bytes; the cursor still moves over the other stream's. */
  stream?: OutputStream;
}

export interface OutputPage {
  /** Whole characters, both streams in arrival order unless a stream was chosen. */
  data: string;
  /** Where the next read continues. */
  cursor: number;
  /** True when the cursor reached the end of what has been written so far. */
  eof: boolean;
  /** Bytes between the requested cursor and the oldest retained byte: history that was discarded. */
  droppedBytes: number;
}

export interface OutputDrain {
  stdout: string;
  stderr: string;
  /** Bytes written since the previous drain that the undrained cap discarded, oldest first. */
  droppedBytes: number;
}

// The smallest page that always holds a character: a UTF-8 character is at most 4 bytes, so
// a page never comes back empty before eof and a pager always moves forward.
const MIN_PAGE_BYTES = 4;

// The memory window (OUTPUT_MEMORY_BYTES_LIMIT) is a few MiB per session, so 32 chatty
// sessions hold ~128 MiB, not 2 GiB; it is never smaller than this.
const MIN_MEMORY_BYTES = 64 * 1024;

// A UTF-16 unit is at most 3 UTF-8 bytes: a chunk whose length times 3 fits needs no measuring.
const MAX_BYTES_PER_UNIT = 3;

// The newest chunk is kept for the next drain when it is this short (or within the undrained
// cap): a chunk at most, never a history.
const LAST_CHUNK_UNITS = 1024 * 1024;

const LINE_FEED = 0x0a;

// TAIL_CHARS characters lie within the last 4 × TAIL_CHARS bytes.
const TAIL_BYTES = TAIL_CHARS * 4;

/**
 * One session's output: chunks tagged stdout/stderr, addressed by absolute UTF-8 byte
 * offsets since the session began. Keeps at most `maxRetainedBytes` of history (the oldest
 * goes first), pages it with read(), and hands out what is new with drain().
 *
 * @example
 * const log = new OutputLog({ maxUndrainedBytes: 10_000 });
 * log.append('stdout', 'hello\n');
 * log.drain(); // { stdout: 'hello\n', stderr: '', droppedBytes: 0 }
 * log.read({ cursor: 0, maxBytes: 4 }); // { data: 'hell', cursor: 4, eof: false, droppedBytes: 0 }
 */
export class OutputLog {
  readonly maxRetainedBytes: number;
  readonly maxUndrainedBytes: number;
  readonly maxChunkBytes: number;
  /** The undrained cap in force: min(maxUndrainedBytes, maxRetainedBytes). */
  readonly undrainedCap: number;
  /** The memory window in force (Infinity when the whole history fits in it). */
  readonly memoryBytesLimit: number;

  private readonly store: TieredStore;
  private readonly runs = new StreamRuns();
  private total = 0;
  // Absolute offset of the oldest retained byte: a character boundary.
  private first = 0;
  private drainedTo = 0;
  private lostAny = false;
  // Whether the oldest retained byte starts a line: the byte before it, when dropped, was a
  // line feed still in memory (false when it was in the spill file: never read for this).
  private firstStartsLine = true;
  private tailCache = '';
  private tailAt = 0;
  // The newest chunk as given, until the next append or drain: a drain after every append
  // (the poll path) hands it, or its end, back without decoding the stored bytes.
  private lastText: string | undefined;
  private lastStart = 0;
  private lastSize = 0;
  private lastStream: OutputStream = 'stdout';

  constructor(options: OutputLogOptions = {}) {
    this.maxRetainedBytes = resolveLimit(
      'maxRetainedBytes',
      options.maxRetainedBytes,
      OUTPUT_TOTAL_BYTES_LIMIT,
    );
    this.maxUndrainedBytes = resolveLimit(
      'maxUndrainedBytes',
      options.maxUndrainedBytes,
      UNDRAINED_BYTES_LIMIT,
    );
    this.maxChunkBytes = resolveLimit(
      'maxChunkBytes',
      options.maxChunkBytes,
      OUTPUT_CHUNK_BYTES_LIMIT,
      MIN_PAGE_BYTES,
    );
    this.undrainedCap = Math.min(this.maxUndrainedBytes, this.maxRetainedBytes);
    const memory = resolveLimit(
      'memoryBytes',
      options.memoryBytes,
      OUTPUT_MEMORY_BYTES_LIMIT,
      MIN_MEMORY_BYTES,
    );
    this.memoryBytesLimit = memory >= this.maxRetainedBytes ? Number.POSITIVE_INFINITY : memory;
    this.store = new TieredStore({
      memoryBytes: this.memoryBytesLimit,
      retainedBytes: this.maxRetainedBytes,
      dir: options.spillDir ?? defaultSpillDir(),
      fs: options.spillFileSystem ?? nodeSpillFileSystem,
    });
  }

  /** Retained history held in memory, in bytes (blocks whose spill write is under way included). */
  get memoryBytes(): number {
    this.settle();
    return this.total - Math.max(this.first, this.store.memoryStart) + this.queuedBytes();
  }

  /** Retained history held in the spill file, in bytes. */
  get diskBytes(): number {
    this.settle();
    return Math.max(0, this.store.diskEnd - Math.max(this.first, this.store.diskStart)) - this.queuedBytes();
  }

  /** Why the log stopped spilling (a full disk): history older than memory was dropped. */
  get spillError(): Error | undefined {
    return this.store.spillError;
  }

  /**
   * No more output comes (the process ended): a log whose history already spills keeps only
   * its newest block in memory and reads the rest from its file; nothing held is dropped.
   */
  complete(): void {
    this.settle();
    this.store.compact();
  }

  /**
   * Frees the spill file (once no write uses it: see flushed()): what it held reads as
   * dropped from then on (the memory window stays readable). Idempotent.
   */
  close(): void {
    this.store.close();
    this.settle();
  }

  /**
   * Settles once the spill writes under way are done, and after close() once the file is
   * closed. Reads never need it: a block is read from memory until its write completed.
   */
  flushed(): Promise<void> {
    return this.store.idle();
  }

  /** Everything the process wrote, in bytes, including what the caps discarded. */
  get totalBytes(): number {
    return this.total;
  }

  /** Bytes of history still held. */
  get retainedBytes(): number {
    this.settle();
    return this.total - this.first;
  }

  /** Absolute offset of the oldest retained byte; a cursor below it reads with droppedBytes. */
  get firstRetainedOffset(): number {
    this.settle();
    return this.first;
  }

  /**
   * True when a line starts at firstRetainedOffset: nothing was dropped, or the last byte
   * dropped was a line feed. False when not known (that byte had gone to the spill file).
   */
  get firstRetainedStartsLine(): boolean {
    this.settle();
    return this.firstStartsLine;
  }

  /** True once any cap (retained history or undrained output) discarded data. */
  get truncated(): boolean {
    this.settle();
    return this.lostAny;
  }

  /** Bytes written since the previous drain (before the undrained cap is applied). */
  get undrainedBytes(): number {
    return this.total - this.drainedTo;
  }

  /** The last 2,000 characters (TAIL_CHARS) of retained history, both streams. */
  get tail(): string {
    this.settle();
    if (this.tailAt !== this.total) {
      const from = this.store.ceil(Math.max(this.first, this.total - TAIL_BYTES));
      this.tailCache = lastCharacters(this.store.decode(from, this.total), TAIL_CHARS);
      this.tailAt = this.total;
    }
    return this.tailCache;
  }

  /**
   * Adds a chunk. Chunks should be whole characters (adapters never split one); a lone
   * surrogate is stored as U+FFFD, the character UTF-8 would carry. Amortised O(1): one
   * encode of the chunk into the log's storage, or one copy when `bytes` are given.
   *
   * `bytes`, when given, must be exactly the chunk's UTF-8 encoding (an adapter that decoded
   * them passes them on): they are stored as they are, and the text is not measured or
   * encoded again (a third of the log's CPU time under a pipe flood). Returns the chunk's
   * size in bytes.
   */
  append(stream: OutputStream, chunk: string, bytes?: Uint8Array): number {
    assertStream(stream);
    assertChunk(chunk);
    assertChunkBytes(chunk, bytes);
    if (chunk.length === 0) return 0;
    const text = bytes === undefined ? wellFormed(chunk) : chunk;
    const start = this.total;
    const cap = this.maxRetainedBytes;
    this.lastText = undefined;
    if (
      bytes !== undefined
        ? bytes.length > cap
        : text.length > cap || (text.length * MAX_BYTES_PER_UNIT > cap && Buffer.byteLength(text) > cap)
    ) {
      const encoded = bytes ?? Buffer.from(text, 'utf8');
      this.total += this.appendBeyondCap(encoded, encoded.length === text.length);
    } else {
      let size: number;
      if (bytes === undefined) size = this.store.append(text);
      else {
        // As many bytes as UTF-16 units: all ASCII (any other character takes more bytes than units).
        this.store.appendBytes(bytes, bytes.length === text.length);
        size = bytes.length;
      }
      this.total += size;
      if (text.length <= LAST_CHUNK_UNITS || text.length <= this.undrainedCap) {
        this.lastText = text;
        this.lastStart = start;
        this.lastSize = size;
        this.lastStream = stream;
      }
    }
    this.runs.add(start, stream);
    if (this.total - this.first > cap) this.evict();
    this.settle();
    if (this.total - this.drainedTo > this.undrainedCap) this.lostAny = true;
    return this.total - start;
  }

  /**
   * A page of history from `cursor`: whole characters only, at most `maxBytes`. A cursor
   * inside a character moves to the next character; a cursor in discarded history reads
   * from the oldest retained byte and says how much was lost in `droppedBytes`.
   *
   * @throws ProcmuxError ERR_INVALID_OPTION for a cursor outside 0..totalBytes, a maxBytes
   * outside 4..maxChunkBytes, or an unknown stream.
   */
  read(options: OutputReadOptions = {}): OutputPage {
    const cursor = resolveCursor(options.cursor, this.total);
    const maxBytes = resolveLimit(
      'maxBytes',
      options.maxBytes,
      { default: this.maxChunkBytes, hard: this.maxChunkBytes },
      MIN_PAGE_BYTES,
    );
    const only = options.stream;
    if (only !== undefined) assertStream(only);
    this.settle();
    const droppedBytes = Math.max(0, this.first - cursor);
    let position = this.store.ceil(Math.max(cursor, this.first));
    let data = '';
    let budget = maxBytes;
    for (
      let i = position < this.total ? this.runs.indexOf(position) : this.runs.length;
      i < this.runs.length;
      i++
    ) {
      const end = this.runs.end(i, this.total);
      // The cursor moves over the other stream's bytes, even once the page is full.
      if (only !== undefined && this.runs.stream(i) !== only) {
        position = end;
        continue;
      }
      if (budget === 0) break;
      if (end - position <= budget) {
        data += this.store.decode(position, end);
        budget -= end - position;
        position = end;
      } else {
        const to = this.store.floor(position + budget, position);
        data += this.store.decode(position, to);
        position = to;
        break;
      }
    }
    return { data, cursor: position, eof: position === this.total, droppedBytes };
  }

  /**
   * What was written since the previous drain, per stream. When more than `undrainedCap`
   * bytes are pending, the oldest go first and `droppedBytes` says how many.
   */
  drain(): OutputDrain {
    this.settle();
    let from = this.drainedTo;
    let droppedBytes = 0;
    const floor = Math.max(this.first, this.total - this.undrainedCap);
    if (from < floor) {
      const boundary = this.store.ceil(floor);
      droppedBytes = boundary - from;
      from = boundary;
    }
    let stdout = '';
    let stderr = '';
    const last = this.lastText !== undefined && from >= this.lastStart ? this.lastEnd(from) : undefined;
    if (last !== undefined) {
      if (this.lastStream === 'stdout') stdout = last;
      else stderr = last;
    } else if (from < this.total) {
      for (let i = this.runs.indexOf(from); i < this.runs.length; i++) {
        const text = this.store.decode(Math.max(from, this.runs.start(i)), this.runs.end(i, this.total));
        if (this.runs.stream(i) === 'stdout') stdout += text;
        else stderr += text;
      }
    }
    this.lastText = undefined;
    this.drainedTo = this.total;
    return { stdout, stderr, droppedBytes };
  }

  /**
   * The raw UTF-8 bytes [from, to) of the retained history, both streams, in one read (no page
   * limit) into the start of `into` (a reader's scratch buffer, so that reading a history
   * back leaves no garbage): for a reader that wants to look at the bytes before deciding to
   * decode them. Returns the part of `into` they fill.
   *
   * @throws RangeError when the range is not within the retained history or `into` is shorter.
   */
  bytesBetween(from: number, to: number, into: Buffer): Buffer {
    this.settle();
    if (!(this.first <= from && from <= to && to <= this.total && to - from <= into.length)) {
      throw new RangeError(
        `bytes ${from}-${to} are not within the retained ${this.first}-${this.total} or longer than ${into.length}`,
      );
    }
    return this.store.bytes(from, to, into);
  }

  /** All retained history as one string, both streams in arrival order. */
  text(): string {
    this.settle();
    return this.store.decode(this.first, this.total);
  }

  // A spill that failed (maybe in a write completed since) dropped what the file held or was
  // to hold: accounted as discarded history before anything reads `first`.
  private settle(): void {
    if (this.store.start > this.first) this.dropBefore(this.store.start);
  }

  private queuedBytes(): number {
    const spilled = this.store.diskEnd - Math.max(this.first, this.store.diskStart);
    return Math.min(this.store.queuedBytes, Math.max(0, spilled));
  }

  // The newest chunk from absolute offset `from` on, when that is known without decoding: the
  // whole chunk, or the end of an ASCII one (a byte per unit, so the offset is the index).
  private lastEnd(from: number): string | undefined {
    const text = this.lastText!;
    if (from === this.lastStart) return text;
    return this.lastSize === text.length ? text.slice(from - this.lastStart) : undefined;
  }

  // A chunk larger than the whole cap: only its retainable end is stored, and everything
  // held before it is gone. Returns the chunk's full size. The byte before the cut is stored
  // too, for evict() to see whether a line starts at the cut, and dropped there.
  private appendBeyondCap(bytes: Uint8Array, ascii: boolean): number {
    let cut = bytes.length - this.maxRetainedBytes;
    while (cut < bytes.length && isContinuation(bytes[cut]!)) cut += 1;
    this.store.skipTo(this.total + cut - 1);
    this.store.appendBytes(bytes.subarray(cut - 1), ascii);
    return bytes.length;
  }

  // Discards the oldest history until at most maxRetainedBytes remain, cutting at the
  // character boundary at or after the cap (so retainedBytes may be up to 3 bytes short).
  private evict(): void {
    this.dropBefore(this.store.ceil(Math.max(this.total - this.maxRetainedBytes, this.store.start)));
  }

  private dropBefore(first: number): void {
    this.firstStartsLine = this.store.memoryByte(first - 1) === LINE_FEED;
    this.first = first;
    this.store.discardBefore(first);
    this.runs.discardBefore(first);
    this.lostAny = true;
  }
}
