// Where the log's older history goes once the memory window is full: one file per log, a
// ring addressed by absolute offset modulo its capacity, so the disk used never exceeds the
// history cap and a page is one positioned read. The file is unlinked as soon as it is
// open: the kernel frees it when the descriptor closes, so a host that is SIGKILLed leaves
// nothing behind (no sweep has to find it).
//
// A block is written at once, synchronously, while such writes are quick (a page-cache copy
// of bytes still in this core's cache: under a 200 MB pipe flood the thread pool's writes of
// the same bytes cost ~75 ms more CPU). Once one took SLOW_WRITE_MS or more (a disk that
// stalls), or on a file system that says its writes may block, the writes leave the hot path:
// a block handed over is queued and written by the thread pool, batched with the blocks queued
// meanwhile, one write in flight at a time. A queued block stays in memory until its write
// completed, and reads of its bytes come from there, so a page is exact whatever the writes'
// progress. Only when the queue is full (a producer faster than the disk, or one that never
// yields to the event loop) is a block written synchronously, so the memory held stays bounded.
// A synchronous write that reaches the ring bytes of the write in flight (the producer went a
// lap past it) is kept in an overlay too, read from there and written again once that write
// completed: landing late, it would have put older bytes over newer ones.
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readSync, unlinkSync, writeSync, writev } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The file operations a spill file uses; injectable so a full disk can be tested. */
export interface SpillFileSystem {
  /**
   * False: a synchronous write may block (a network mount; tests holding writes), so every
   * block goes through the queue. Default true: blocks are written at once until one is slow.
   */
  inline?: boolean;
  /** Creates and opens a new file in `dir` for reading and writing; returns its descriptor. */
  create(dir: string): number;
  /** Writes synchronously; returns the bytes written (may throw: ENOSPC, EIO...). */
  write(fd: number, bytes: Uint8Array, position: number): number;
  /** Writes `buffers` in order from `position` off the main thread, then calls `done`. */
  writeAsync(
    fd: number,
    buffers: Uint8Array[],
    position: number,
    done: (error: Error | null, written: number) => void,
  ): void;
  read(fd: number, into: Uint8Array, position: number): number;
  close(fd: number): void;
}

export const nodeSpillFileSystem: SpillFileSystem = {
  create(dir) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const path = join(dir, `procmux-output-${process.pid}-${randomBytes(6).toString('hex')}.log`);
    const fd = openSync(path, 'wx+', 0o600);
    try {
      unlinkSync(path);
    } catch {
      // Windows without POSIX delete semantics: the name goes when the descriptor closes.
    }
    return fd;
  },
  write: (fd, bytes, position) => writeSync(fd, bytes, 0, bytes.length, position),
  writeAsync: (fd, buffers, position, done) =>
    writev(fd, buffers, position, (error, written) => done(error, written)),
  read: (fd, into, position) => readSync(fd, into, 0, into.length, position),
  close: (fd) => closeSync(fd),
};

/** The directory used when the log is given none: the OS temp dir's procmux folder. */
export function defaultSpillDir(): string {
  return join(tmpdir(), 'procmux-output');
}

/**
 * Ring bytes the write in flight is to write (`bytes`, at `position`): its batch, and a wrapped
 * block's tail written at the ring's start when it completes. `over`: those bytes with what was
 * written synchronously over them since (only a producer a whole lap ahead does it) on top,
 * made at the first such write.
 */
interface FlightRange {
  position: number;
  bytes: Buffer[];
  length: number;
  over: Buffer | undefined;
}

interface Queued {
  /** Absolute offset of bytes[0]. */
  start: number;
  bytes: Buffer;
}

export interface SpillFileOptions {
  dir: string;
  /** The ring's size in bytes. */
  capacity: number;
  /** Bytes the write queue may hold before blocks are written synchronously. */
  queueBytes: number;
  fs: SpillFileSystem;
  /** Takes back a block's buffer once it is written (or dropped). */
  release: (bytes: Buffer) => void;
  /** Called once when a write fails: everything the file held or was to hold is gone. */
  onFailure: (error: Error) => void;
  /** The monotonic clock (ms) a synchronous write is timed on (default performance.now). */
  now?: () => number;
}

/** A synchronous write that takes this long (a stalling disk) sends the later ones to the thread pool. */
export const SLOW_WRITE_MS = 20;

/** Bytes at absolute offsets in a ring file of `capacity` bytes, opened on the first write. */
export class SpillFile {
  #fd: number | undefined;
  #closed = false;
  #failed = false;
  // Blocks not yet written, oldest first; those before #submitted are in the write in flight.
  #queue: Queued[] = [];
  #submitted = 0;
  #queuedBytes = 0;
  #writing = false;
  // Descriptors to close once the write in flight (which may use them) has completed.
  #retired: number[] = [];
  #idle: (() => void)[] = [];
  // Blocks are written at once, on the caller's thread, until one such write was slow.
  #inline: boolean;
  // The ring bytes of the write in flight, with what was written over them since: that write
  // may not have landed yet (a thread pool kept busy elsewhere) and would put older bytes over
  // newer, so those are read from here and written again once it completed.
  #flight: FlightRange[] = [];

  constructor(private readonly options: SpillFileOptions) {
    this.#inline = options.fs.inline !== false;
  }

  /** Bytes handed over whose write has not completed: still in memory. */
  get queuedBytes(): number {
    return this.#queuedBytes;
  }

  /**
   * Takes `bytes` (ownership: handed back through `release`) for absolute offset `start` on.
   * False when the file is closed or failed: the caller drops them.
   */
  enqueue(start: number, bytes: Buffer): boolean {
    if (this.#closed || this.#failed) return false;
    try {
      this.#fd ??= this.options.fs.create(this.options.dir);
    } catch (error) {
      this.#fail(error);
      return false;
    }
    if (this.#inline) return this.#writeInline(start, bytes);
    if (this.#queuedBytes + bytes.length > this.options.queueBytes) {
      // The queue is full: what waits in it is written here and now, oldest first, and then
      // this block too if the write in flight alone fills the queue. Never a newer block
      // before an older one: once a producer that never yields has gone a lap of the ring
      // past a block left waiting, that block written last would overwrite newer history.
      try {
        this.#writeWaiting();
        if (this.#queuedBytes + bytes.length > this.options.queueBytes) {
          // Handed back only once written: refused (false), the block stays the caller's.
          this.#writeSync(start, bytes);
          this.options.release(bytes);
          return true;
        }
      } catch (error) {
        this.#fail(error);
        return false;
      }
    }
    this.#queue.push({ start, bytes });
    this.#queuedBytes += bytes.length;
    this.#pump();
    return true;
  }

  // Writes a block at once and hands it back; the first slow write ends this for the file.
  #writeInline(start: number, bytes: Buffer): boolean {
    const now = this.options.now ?? performance.now.bind(performance);
    const began = now();
    try {
      this.#writeSync(start, bytes);
    } catch (error) {
      // The caller drops the block (and takes its buffer back) when the file refuses it.
      this.#fail(error);
      return false;
    }
    if (now() - began >= SLOW_WRITE_MS) this.#inline = false;
    this.options.release(bytes);
    return true;
  }

  /** Reads bytes [from, to) that were handed over: queued ones from memory, the rest from the file. */
  read(from: number, to: number, into?: Buffer): Buffer {
    const out = into ? into.subarray(0, to - from) : Buffer.allocUnsafe(to - from);
    let at = from;
    for (const block of this.#queue) {
      const end = block.start + block.bytes.length;
      if (end <= at || block.start >= to) continue;
      if (block.start > at) {
        this.#readFile(out, from, at, block.start);
        at = block.start;
      }
      const stop = Math.min(end, to);
      block.bytes.copy(out, at - from, at - block.start, stop - block.start);
      at = stop;
      if (at === to) return out;
    }
    this.#readFile(out, from, at, to);
    return out;
  }

  /** Starts over with an empty file: what was handed over is no longer read. */
  reset(): void {
    this.#dropQueue();
    this.#retire();
  }

  /** Closes (and so frees) the file once no write uses it; later blocks are refused. */
  close(): void {
    this.#closed = true;
    this.reset();
  }

  /** Settles once no write is in flight and every closed descriptor is closed. */
  idle(): Promise<void> {
    if (!this.#writing) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  // A span of the ring is at most two pieces: up to the ring's end, then from its start. Each
  // piece's loop advances only by what a read returns; one that returns nothing throws, naming
  // the absolute offset (`offset`: into[0]'s): no loop here goes on without asking the disk.
  #readFile(out: Buffer, base: number, from: number, to: number): void {
    if (from >= to) return;
    if (this.#fd === undefined) throw new Error('spill file read before any write');
    const position = from % this.options.capacity;
    const head = Math.min(to - from, this.options.capacity - position);
    this.#readRing(out.subarray(from - base, from - base + head), position, from);
    if (head < to - from) this.#readRing(out.subarray(from - base + head, to - base), 0, from + head);
  }

  // One piece of the ring (it does not wrap): bytes kept over the write in flight from there.
  #readRing(into: Buffer, position: number, offset: number): void {
    let at = position;
    const end = position + into.length;
    for (const range of this.#flight) {
      const from = Math.max(at, range.position);
      const to = Math.min(end, range.position + range.length);
      if (range.over === undefined || from >= to) continue;
      if (from > at)
        this.#readAll(into.subarray(at - position, from - position), at, offset + (at - position));
      range.over.copy(into, from - position, from - range.position, to - range.position);
      at = to;
    }
    if (at < end) this.#readAll(into.subarray(at - position), at, offset + (at - position));
  }

  #readAll(into: Buffer, position: number, offset: number): void {
    let done = 0;
    while (done < into.length) done += this.#readSome(into.subarray(done), position + done, offset + done);
  }

  #readSome(into: Buffer, position: number, offset: number): number {
    const got = this.options.fs.read(this.#fd!, into, position);
    if (got <= 0) throw new Error(`spill file short read at ${offset}`);
    return got;
  }

  // Writes the queued blocks no write has taken yet, synchronously, and hands them back. A
  // block stays queued until written: a write that throws leaves it to #fail to hand back.
  #writeWaiting(): void {
    for (const block of this.#queue.slice(this.#submitted)) {
      this.#writeSync(block.start, block.bytes);
      this.#queue.splice(this.#submitted, 1);
      this.#queuedBytes -= block.bytes.length;
      this.options.release(block.bytes);
    }
  }

  // Only the last `capacity` bytes of a block bigger than the ring are kept by it (a history
  // cap smaller than a block): the rest would be overwritten within the same block.
  #writeSync(start: number, bytes: Uint8Array): void {
    const { capacity } = this.options;
    const skip = Math.max(0, bytes.length - capacity);
    const position = (start + skip) % capacity;
    const kept = bytes.subarray(skip);
    const head = Math.min(kept.length, capacity - position);
    this.#writeAll(kept.subarray(0, head), position);
    if (head < kept.length) this.#writeAll(kept.subarray(head), 0);
    if (this.#writing) {
      this.#keepOver(kept.subarray(0, head), position);
      if (head < kept.length) this.#keepOver(kept.subarray(head), 0);
    }
  }

  // Copies what of `bytes` (written at ring `position`) lies over the write in flight.
  #keepOver(bytes: Uint8Array, position: number): void {
    for (const range of this.#flight) {
      const from = Math.max(position, range.position);
      const to = Math.min(position + bytes.length, range.position + range.length);
      if (from >= to) continue;
      range.over ??= Buffer.concat(range.bytes, range.length);
      range.over.set(bytes.subarray(from - position, to - position), from - range.position);
    }
  }

  #writeAll(bytes: Uint8Array, position: number): void {
    let done = 0;
    while (done < bytes.length) done += this.#writeSome(bytes.subarray(done), position + done);
  }

  // A write that takes nothing of a non-empty piece would be asked again for ever.
  #writeSome(bytes: Uint8Array, position: number): number {
    const took = this.options.fs.write(this.#fd!, bytes, position);
    if (took <= 0) throw new Error(`spill file write took nothing at ${position}`);
    return took;
  }

  // Writes every queued block that is contiguous in the ring from the oldest unsubmitted
  // one, in one call; the next batch goes when it completes. A block the ring's end cuts
  // ends the batch with its head; its tail is written when the batch completes.
  #pump(): void {
    if (this.#writing || this.#submitted === this.#queue.length || this.#fd === undefined) return;
    const { capacity } = this.options;
    const first = this.#queue[this.#submitted]!;
    const position = first.start % capacity;
    const buffers: Buffer[] = [];
    let end = first.start;
    let room = capacity - position;
    let wraps = false;
    let count = 0;
    for (let i = this.#submitted; i < this.#queue.length; i++) {
      const block = this.#queue[i]!;
      // At the ring's end exactly, the next block starts the next lap: a batch of its own
      // (taken as "cut by the end" it would have an empty head and no tail ever written).
      if (block.start !== end || room === 0) break;
      count += 1;
      if (block.bytes.length > room) {
        buffers.push(block.bytes.subarray(0, room));
        wraps = true;
        break;
      }
      buffers.push(block.bytes);
      room -= block.bytes.length;
      end += block.bytes.length;
    }
    this.#submitted += count;
    this.#writing = true;
    const length = buffers.reduce((sum, b) => sum + b.length, 0);
    this.#flight = [{ position, bytes: buffers, length, over: undefined }];
    if (wraps) {
      const last = this.#queue[this.#submitted - 1]!;
      const tail = last.bytes.subarray(buffers[buffers.length - 1]!.length);
      // First: a read walks the ranges in ring order.
      this.#flight.unshift({ position: 0, bytes: [tail], length: tail.length, over: undefined });
    }
    this.#write(this.#fd, buffers, position, wraps);
  }

  #write(fd: number, buffers: Buffer[], position: number, wraps: boolean): void {
    const total = buffers.reduce((sum, b) => sum + b.length, 0);
    this.options.fs.writeAsync(fd, buffers, position, (error, written) => {
      if (error === null && written < total) {
        // A short write: the rest goes on from where it stopped.
        let skip = written;
        const rest: Buffer[] = [];
        for (const b of buffers) {
          if (skip >= b.length) skip -= b.length;
          else {
            rest.push(b.subarray(skip));
            skip = 0;
          }
        }
        this.#write(fd, rest, position + written, wraps);
        return;
      }
      this.#writing = false;
      const flight = this.#flight;
      this.#flight = [];
      if (error !== null) this.#fail(error);
      else if (fd === this.#fd) this.#completed(wraps, flight);
      this.#closeRetired();
      this.#pump();
      if (!this.#writing) for (const resolve of this.#idle.splice(0)) resolve();
    });
  }

  #completed(wraps: boolean, flight: FlightRange[]): void {
    const done = this.#queue.splice(0, this.#submitted);
    this.#submitted = 0;
    try {
      if (wraps) {
        // The last block's head is written; its tail goes to the ring's start.
        const block = done[done.length - 1]!;
        const head = this.options.capacity - (block.start % this.options.capacity);
        this.#writeSync(block.start + head, block.bytes.subarray(head));
      }
      // Newer bytes written over the flight's go back over the older ones just put there.
      for (const range of flight) if (range.over !== undefined) this.#writeAll(range.over, range.position);
    } catch (error) {
      this.#queue.unshift(...done);
      this.#fail(error);
      return;
    }
    for (const block of done) {
      this.#queuedBytes -= block.bytes.length;
      this.options.release(block.bytes);
    }
  }

  #fail(error: unknown): void {
    if (this.#failed || this.#closed) return;
    this.#failed = true;
    this.#dropQueue();
    this.#retire();
    this.options.onFailure(error instanceof Error ? error : new Error(String(error)));
  }

  #dropQueue(): void {
    // A block in flight is still read by the thread pool: its buffer is not handed back.
    const free = this.#writing ? this.#queue.slice(this.#submitted) : this.#queue;
    for (const block of free) this.options.release(block.bytes);
    this.#queue = [];
    this.#submitted = 0;
    this.#queuedBytes = 0;
    // The write in flight is for a file no longer read: nothing to put back over it.
    this.#flight = [];
  }

  #retire(): void {
    if (this.#fd === undefined) return;
    this.#retired.push(this.#fd);
    this.#fd = undefined;
    if (!this.#writing) this.#closeRetired();
  }

  #closeRetired(): void {
    for (const fd of this.#retired.splice(0)) {
      try {
        this.options.fs.close(fd);
      } catch {
        // Already gone: nothing left to free.
      }
    }
  }
}
