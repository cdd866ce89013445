import {
  describe,
  OUTPUT_CHUNK_BYTES_LIMIT,
  OUTPUT_TOTAL_BYTES_LIMIT,
  resolveLimit,
  TAIL_CHARS,
  UNDRAINED_BYTES_LIMIT,
} from '@procmux/core-types';
import { ChunkQueue, type OutputStream } from './chunk-queue.js';
import { detach, lastCharacters, locateByte, type StringPosition, wellFormed } from './utf8.js';
import { assertStream, invalidOption, resolveCursor } from './validate.js';

export interface OutputLogOptions {
  /** History kept, in UTF-8 bytes (default 64 MiB, at most 1 GiB); the oldest goes first. */
  maxRetainedBytes?: number;
  /** Output held for the next drain() (default 30,000, at most 1 GiB; capped by maxRetainedBytes). */
  maxUndrainedBytes?: number;
  /** Largest page read() returns, and its default (default 50 KiB, from 4 bytes to 1 MiB). */
  maxChunkBytes?: number;
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

const START: StringPosition = { index: 0, byte: 0 };

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

  private readonly chunks = new ChunkQueue();
  private total = 0;
  // Absolute offset of the oldest retained byte (a character boundary), and where it sits in
  // the head chunk: eviction may keep the head chunk's string while discarding its front.
  private first = 0;
  private headSkip: StringPosition = START;
  // Eviction drops whole chunks as output arrives, but finding the character boundary inside
  // the head chunk costs a scan as long as an append; it waits until someone looks (settle()).
  private cutAt = 0;
  private cutPending = false;
  private drainedTo = 0;
  private lostAny = false;
  private tailCache = '';
  private tailAt = 0;

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

  /** True once any cap (retained history or undrained output) discarded data. */
  get truncated(): boolean {
    return this.lostAny;
  }

  /** Bytes written since the previous drain (before the undrained cap is applied). */
  get undrainedBytes(): number {
    return this.total - this.drainedTo;
  }

  /** The last 2,000 characters (TAIL_CHARS) of retained history, both streams. */
  get tail(): string {
    if (this.tailAt !== this.total) {
      this.settle();
      this.tailCache = this.computeTail();
      this.tailAt = this.total;
    }
    return this.tailCache;
  }

  /**
   * Adds a chunk. Chunks should be whole characters (adapters never split one); a lone
   * surrogate is stored as U+FFFD, the character UTF-8 would carry. Amortised O(1).
   */
  append(stream: OutputStream, chunk: string): void {
    assertStream(stream);
    if (typeof chunk !== 'string') {
      throw invalidOption('chunk', `chunk must be a string (got ${describe(chunk)})`);
    }
    if (chunk.length === 0) return;
    let text = wellFormed(chunk);
    let size = Buffer.byteLength(text, 'utf8');
    let start = this.total;
    this.total += size;
    if (size > this.maxRetainedBytes) {
      // Keep only the part that can be retained, copied so the rest can be collected.
      const cut = locateByte(text, size, size - this.maxRetainedBytes, 'up');
      text = detach(text.slice(cut.index));
      start += cut.byte;
      size -= cut.byte;
    }
    if (size > 0) this.chunks.push(text, size, start, stream);
    if (this.total - this.first > this.maxRetainedBytes) this.evict();
    if (this.total - this.drainedTo > this.undrainedCap) this.lostAny = true;
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
    this.settle();
    const maxBytes = resolveLimit(
      'maxBytes',
      options.maxBytes,
      { default: this.maxChunkBytes, hard: this.maxChunkBytes },
      MIN_PAGE_BYTES,
    );
    const only = options.stream;
    if (only !== undefined) assertStream(only);
    const droppedBytes = Math.max(0, this.first - cursor);
    let position = Math.max(cursor, this.first);
    let data = '';
    let budget = maxBytes;
    for (
      let i = position < this.total ? this.chunks.indexOf(position) : this.chunks.length;
      i < this.chunks.length;
      i++
    ) {
      const start = this.chunks.start(i);
      const size = this.chunks.size(i);
      if (only !== undefined && this.chunks.stream(i) !== only) {
        position = start + size;
        continue;
      }
      if (budget === 0) break;
      const text = this.chunks.text(i);
      const from = locateByte(text, size, position - start, 'up', this.hint(i));
      if (size - from.byte <= budget) {
        data += from.index === 0 ? text : text.slice(from.index);
        budget -= size - from.byte;
        position = start + size;
      } else {
        const to = locateByte(text, size, from.byte + budget, 'down', from);
        data += text.slice(from.index, to.index);
        position = start + to.byte;
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
    // drainedTo is a chunk end, so a character boundary: if it is at or past the cut, the cut
    // (rounded up to a boundary) cannot pass it, and the poll path skips the boundary scan.
    if (this.cutPending && this.drainedTo < this.cutAt) this.settle();
    let from = this.drainedTo;
    let droppedBytes = 0;
    const floor = Math.max(this.first, this.total - this.undrainedCap);
    if (from < floor) {
      const boundary = this.boundaryAtOrAfter(floor);
      droppedBytes = boundary - from;
      from = boundary;
    }
    let stdout = '';
    let stderr = '';
    if (from < this.total) {
      for (let i = this.chunks.indexOf(from); i < this.chunks.length; i++) {
        const start = this.chunks.start(i);
        let text = this.chunks.text(i);
        if (from > start) {
          const at = locateByte(text, this.chunks.size(i), from - start, 'up', this.hint(i));
          text = text.slice(at.index);
        }
        if (this.chunks.stream(i) === 'stdout') stdout += text;
        else stderr += text;
      }
    }
    this.drainedTo = this.total;
    return { stdout, stderr, droppedBytes };
  }

  /** All retained history as one string, both streams in arrival order. */
  text(): string {
    this.settle();
    let out = '';
    for (let i = 0; i < this.chunks.length; i++) {
      const text = this.chunks.text(i);
      out += i === 0 && this.headSkip.index > 0 ? text.slice(this.headSkip.index) : text;
    }
    return out;
  }

  // Discards the oldest history until at most maxRetainedBytes remain: whole chunks now, the
  // front of the head chunk at the next settle(). `first` may lag meanwhile, which only makes
  // append() call this more often; the cut target only grows, so the result is the same.
  private evict(): void {
    this.cutAt = this.total - this.maxRetainedBytes;
    while (this.chunks.length > 0 && this.chunks.end(0) <= this.cutAt) this.chunks.shift();
    this.cutPending = true;
    this.lostAny = true;
  }

  // Moves `first` to the character boundary at or after the cut (rounding up, so
  // retainedBytes may be up to 3 bytes short of the cap), never before the head chunk.
  private settle(): void {
    if (!this.cutPending) return;
    this.cutPending = false;
    if (this.chunks.length === 0) {
      this.first = this.total;
      this.headSkip = START;
      return;
    }
    const start = this.chunks.start(0);
    // The previous cut is a valid starting point only if it fell inside this same chunk.
    const from = this.first > start ? this.headSkip : START;
    this.headSkip = locateByte(this.chunks.text(0), this.chunks.size(0), this.cutAt - start, 'up', from);
    this.first = start + this.headSkip.byte;
  }

  // A known position inside chunk i to scan from: the settled cut for the head chunk.
  private hint(i: number): StringPosition {
    return i === 0 && !this.cutPending ? this.headSkip : START;
  }

  private boundaryAtOrAfter(offset: number): number {
    if (offset >= this.total) return this.total;
    const i = this.chunks.indexOf(offset);
    const start = this.chunks.start(i);
    const from = this.hint(i);
    return start + locateByte(this.chunks.text(i), this.chunks.size(i), offset - start, 'up', from).byte;
  }

  private computeTail(): string {
    // Gather just enough units from the end: TAIL_CHARS characters fit in 2 units each.
    const want = TAIL_CHARS * 2 + 1;
    let out = '';
    for (let i = this.chunks.length - 1; i >= 0 && out.length < want; i--) {
      let text = this.chunks.text(i);
      if (i === 0 && this.headSkip.index > 0) text = text.slice(this.headSkip.index);
      const room = want - out.length;
      out = (text.length > room ? text.slice(text.length - room) : text) + out;
    }
    return lastCharacters(out, TAIL_CHARS);
  }
}
