// Where the log's older history goes once the memory window is full: one file per log, a
// ring addressed by absolute offset modulo its capacity, so the disk used never exceeds the
// history cap and a page is one positioned read. The file is unlinked as soon as it is
// open: the kernel frees it when the descriptor closes, so a host that is SIGKILLed leaves
// nothing behind (no sweep has to find it).
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The file operations a spill file uses; injectable so a full disk can be tested. */
export interface SpillFileSystem {
  /** Creates and opens a new file in `dir` for reading and writing; returns its descriptor. */
  create(dir: string): number;
  write(fd: number, bytes: Uint8Array, position: number): number;
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
  read: (fd, into, position) => readSync(fd, into, 0, into.length, position),
  close: (fd) => closeSync(fd),
};

/** The directory used when the log is given none: the OS temp dir's procmux folder. */
export function defaultSpillDir(): string {
  return join(tmpdir(), 'procmux-output');
}

/** Bytes at absolute offsets in a ring file of `capacity` bytes, opened on the first write. */
export class SpillFile {
  #fd: number | undefined;
  #closed = false;

  constructor(
    private readonly dir: string,
    private readonly capacity: number,
    private readonly fs: SpillFileSystem,
  ) {}

  /** Writes `bytes` for absolute offset `offset` on (may throw: ENOSPC, EIO...). */
  write(offset: number, bytes: Uint8Array): void {
    if (this.#closed) return;
    this.#fd ??= this.fs.create(this.dir);
    let at = 0;
    while (at < bytes.length) {
      const position = (offset + at) % this.capacity;
      const count = Math.min(bytes.length - at, this.capacity - position);
      const piece = bytes.subarray(at, at + count);
      let done = 0;
      while (done < count) done += this.fs.write(this.#fd, piece.subarray(done), position + done);
      at += count;
    }
  }

  /** Reads bytes [from, to) that were written. */
  read(from: number, to: number): Buffer {
    const out = Buffer.allocUnsafe(to - from);
    if (this.#fd === undefined) throw new Error('spill file read before any write');
    let at = 0;
    while (at < out.length) {
      const position = (from + at) % this.capacity;
      const count = Math.min(out.length - at, this.capacity - position);
      const got = this.fs.read(this.#fd, out.subarray(at, at + count), position);
      if (got <= 0) throw new Error(`spill file short read at ${from + at}`);
      at += got;
    }
    return out;
  }

  /** Closes (and so frees) the file; later writes are ignored. */
  close(): void {
    this.#closed = true;
    if (this.#fd === undefined) return;
    const fd = this.#fd;
    this.#fd = undefined;
    this.fs.close(fd);
  }
}
