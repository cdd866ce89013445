// The log's storage: output kept as UTF-8 bytes in Buffer blocks outside the JavaScript heap.
// Keeping the chunk strings themselves made every retained chunk survive young-generation
// collections and get copied into the old generation, then be collected there once evicted:
// under a 200 MB flood garbage collection took a third of the CPU time, and 32 flooded logs
// peaked at 1.59x their caps. Bytes written into blocks cost one encode and nothing after.

/** How big the blocks may be: a block holds whole characters, so at least 4 bytes. */
export interface BlockSizes {
  /** The first block's size (later blocks double up to maxBlockBytes). */
  minBlockBytes: number;
  maxBlockBytes: number;
}

interface Block {
  bytes: Buffer;
  /** Absolute offset of bytes[0]. */
  start: number;
  /** Bytes written. */
  used: number;
  /** Where writing stops: the buffer's end, or `used` once closed rather than split a character. */
  limit: number;
  /** Every byte written is ASCII (as far as the writers said): each offset is a character boundary. */
  ascii: boolean;
}

// A UTF-8 character is at most 3 bytes per UTF-16 unit (a surrogate pair: 2 units, 4 bytes).
const MAX_BYTES_PER_UNIT = 3;
/** Chunks this long are measured before they are stored (see append). */
const MEASURE_FIRST_UNITS = 1024;
const MIN_BLOCK_BYTES = 4;
const MAX_SPARES = 2;

/** True for a UTF-8 continuation byte (10xxxxxx): not the first byte of a character. */
export function isContinuation(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

/**
 * UTF-8 bytes addressed by absolute offsets from 0 to `end`, of which those from the oldest
 * block on are held. Each block holds whole characters, so any range between two character
 * boundaries decodes block by block. Memory: the bytes held, rounded out to whole blocks
 * (the oldest partly discarded, the newest partly filled), plus up to two discarded blocks
 * kept for reuse.
 */
export class ByteStore {
  // Slots before `head` are dropped blocks, cleared so their memory can go.
  private blocks: (Block | undefined)[] = [];
  private head = 0;
  private readonly spares: Buffer[] = [];
  private maxSpares = MAX_SPARES;
  private written = 0;
  private readonly minBlock: number;
  private readonly maxBlock: number;

  constructor(sizes: BlockSizes) {
    this.maxBlock = Math.max(MIN_BLOCK_BYTES, sizes.maxBlockBytes);
    this.minBlock = Math.min(this.maxBlock, Math.max(MIN_BLOCK_BYTES, sizes.minBlockBytes));
  }

  /** Absolute offset just past the last byte written. */
  get end(): number {
    return this.written;
  }

  /** Absolute offset of the oldest byte held (`end` when nothing is held). */
  get start(): number {
    return this.blocks.length > this.head ? this.blocks[this.head]!.start : this.written;
  }

  /**
   * Appends `text` (well-formed: no lone surrogates) as UTF-8 and returns its byte length.
   * The common case encodes straight into the newest block, with no scan or copy before.
   */
  append(text: string): number {
    const block = this.writable();
    const room = block.limit - block.used;
    // A long chunk (a flood's 64 KiB reads) is measured first: ASCII, nearly all output, is
    // then copied as Latin-1, a byte per unit. V8's UTF-8 encoder took 2-5x as long on fresh
    // strings, and measuring costs less than the difference.
    if (text.length >= MEASURE_FIRST_UNITS) {
      const size = Buffer.byteLength(text);
      if (size === text.length) this.appendAscii(text);
      else if (size <= room) this.write(block, text, room);
      else this.appendBytes(Buffer.from(text, 'utf8'));
      return size;
    }
    // Sure to fit without measuring: one encode into place.
    if (text.length * MAX_BYTES_PER_UNIT <= room) return this.write(block, text, room);
    const size = Buffer.byteLength(text);
    if (size <= room) return this.write(block, text, room);
    // Spans blocks (once per block filled). ASCII, one byte per unit, splits anywhere;
    // anything else is encoded once and copied in whole characters.
    if (size === text.length) this.appendAscii(text);
    else this.appendBytes(Buffer.from(text, 'utf8'));
    return size;
  }

  /** Appends UTF-8 bytes that start and end on character boundaries; `ascii`: all of them are ASCII. */
  appendBytes(data: Uint8Array, ascii = false): void {
    // Buffer#copy is one memcpy; TypedArray#set of a subarray cost 4x as much per chunk.
    const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.length);
    let at = 0;
    while (at < bytes.length) {
      const block = this.writable();
      let count = Math.min(block.limit - block.used, bytes.length - at);
      // Never split a character across blocks: leave the rest of this one unused instead.
      if (at + count < bytes.length) while (count > 0 && isContinuation(bytes[at + count]!)) count -= 1;
      if (count === 0) {
        block.limit = block.used;
        continue;
      }
      bytes.copy(block.bytes, block.used, at, at + count);
      block.used += count;
      if (!ascii) block.ascii = false;
      this.written += count;
      at += count;
    }
  }

  /** Drops everything held and continues at `offset` (>= end): the bytes between are gone. */
  skipTo(offset: number): void {
    this.discardBefore(Number.POSITIVE_INFINITY);
    const last = this.newest();
    if (last !== undefined) {
      this.recycle(last.bytes);
      this.blocks = [];
      this.head = 0;
    }
    this.written = offset;
  }

  /**
   * Frees the blocks that lie wholly before `offset`. The newest block stays, as the place
   * the next bytes go.
   */
  discardBefore(offset: number): void {
    while (this.blocks.length - this.head > 1) {
      const block = this.blocks[this.head]!;
      if (block.start + block.used > offset) break;
      this.recycle(block.bytes);
      this.blocks[this.head] = undefined;
      this.head += 1;
    }
    // Compact once the dropped slots are the larger part: amortised O(1) per block.
    if (this.head > 16 && this.head * 2 >= this.blocks.length) {
      this.blocks = this.blocks.slice(this.head);
      this.head = 0;
    }
  }

  /**
   * Hands the oldest block's bytes to `use`, then drops it; false when only the newest block
   * (where the next bytes go) is left. A block holds whole characters, so its start and end
   * are character boundaries. When `use` returns true it keeps the bytes (and may give them
   * back with reuse()); otherwise, or if it throws, they are recycled at once.
   */
  dropOldest(use: (start: number, bytes: Buffer, ascii: boolean) => boolean): boolean {
    if (this.blocks.length - this.head <= 1) return false;
    const block = this.blocks[this.head]!;
    this.blocks[this.head] = undefined;
    this.head += 1;
    let kept = false;
    try {
      kept = use(block.start, block.bytes.subarray(0, block.used), block.ascii);
    } finally {
      if (!kept) this.recycle(block.bytes);
      if (this.head > 16 && this.head * 2 >= this.blocks.length) {
        this.blocks = this.blocks.slice(this.head);
        this.head = 0;
      }
    }
    return true;
  }

  /** The byte at `offset` (held: start <= offset < end). */
  byteAt(offset: number): number {
    const block = this.blocks[this.find(offset)]!;
    return block.bytes[offset - block.start]!;
  }

  /** The first character boundary at or after `offset` (held or end). */
  ceil(offset: number): number {
    let at = offset;
    while (at < this.written && isContinuation(this.byteAt(at))) at += 1;
    return at;
  }

  /** The last character boundary at or before `offset`, not below `floor`. */
  floor(offset: number, floor: number): number {
    let at = offset;
    while (at > floor && at < this.written && isContinuation(this.byteAt(at))) at -= 1;
    return at;
  }

  /** The text of bytes [from, to): both held character boundaries. */
  decode(from: number, to: number): string {
    if (from >= to) return '';
    let text = '';
    for (let i = this.find(from); i < this.blocks.length; i++) {
      const block = this.blocks[i]!;
      const blockEnd = block.start + block.used;
      const stop = Math.min(to, blockEnd);
      text += block.bytes.toString('utf8', Math.max(from, block.start) - block.start, stop - block.start);
      if (stop === to) break;
    }
    return text;
  }

  /** Copies the bytes [from, to) to the start of `into`. */
  copy(from: number, to: number, into: Buffer): void {
    for (let i = this.find(from); i < this.blocks.length && from < to; i++) {
      const block = this.blocks[i]!;
      const start = Math.max(from, block.start);
      const stop = Math.min(to, block.start + block.used);
      block.bytes.copy(into, start - from, start - block.start, stop - block.start);
      if (stop === to) break;
    }
  }

  private write(block: Block, text: string, room: number): number {
    const size = block.bytes.write(text, block.used, room, 'utf8');
    block.used += size;
    if (size !== text.length) block.ascii = false;
    this.written += size;
    return size;
  }

  private appendAscii(text: string): void {
    for (let at = 0; at < text.length; ) {
      const block = this.writable();
      const count = Math.min(block.limit - block.used, text.length - at);
      block.bytes.write(text.slice(at, at + count), block.used, count, 'latin1');
      block.used += count;
      this.written += count;
      at += count;
    }
  }

  // The newest block, or a new one once it is full (or closed).
  private writable(): Block {
    const block = this.newest();
    return block === undefined || block.used === block.limit ? this.addBlock() : block;
  }

  private newest(): Block | undefined {
    return this.blocks.length > this.head ? this.blocks[this.blocks.length - 1] : undefined;
  }

  // Index of the block holding `offset`: the last one starting at or before it.
  private find(offset: number): number {
    let low = this.head;
    let high = this.blocks.length - 1;
    // Drains and tails land in the newest block, cuts in the oldest: no search for those.
    if (this.blocks[high]!.start <= offset) return high;
    if (high > low && this.blocks[low + 1]!.start > offset) return low;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if (this.blocks[mid]!.start <= offset) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  // Blocks double with the bytes held, so a small log stays small and a large one is made of
  // few maxBlock blocks, recycled as the oldest are discarded.
  private addBlock(): Block {
    const held = this.written - this.start;
    let size = this.minBlock;
    while (size < held && size < this.maxBlock) size *= 2;
    size = Math.min(size, this.maxBlock);
    // A recycled block is memory already mapped: no page faults, unlike a fresh one.
    const bytes =
      size === this.maxBlock
        ? (this.spares.pop() ?? Buffer.allocUnsafeSlow(size))
        : Buffer.allocUnsafeSlow(size);
    const block: Block = { bytes, start: this.written, used: 0, limit: size, ascii: true };
    this.blocks.push(block);
    return block;
  }

  /** Takes back bytes dropOldest() handed out and `use` kept, as a spare block if it fits. */
  reuse(bytes: Buffer): void {
    const whole = bytes.buffer;
    if (bytes.byteOffset === 0 && whole.byteLength === this.maxBlock) this.recycle(Buffer.from(whole));
  }

  /** Memory in spare blocks, kept to be written into next (not counted as held). */
  get spareBytes(): number {
    return this.spares.length * this.maxBlock;
  }

  /** Lets the spare blocks go and keeps none from now on: for a store no more bytes come to. */
  dropSpares(): void {
    this.maxSpares = 0;
    this.spares.length = 0;
  }

  private recycle(bytes: Buffer): void {
    // Two, not one: frees and needs alternate only roughly (a block is needed in the middle
    // of an append, before that append's cut frees the oldest), and one spare missed a third
    // of the time under a flood, mapping a fresh megabyte each time.
    if (bytes.length === this.maxBlock && this.spares.length < this.maxSpares) this.spares.push(bytes);
  }
}
