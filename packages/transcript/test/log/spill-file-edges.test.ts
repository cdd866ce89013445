// The spill file on a disk that misbehaves the ways a real one may: writes and reads that take
// part of what they were given, a file that cannot be made, a close while a write is in flight.
// An in-memory disk, so each write completes when the test says.
import { AssertionError } from 'node:assert';
import { afterEach, describe, expect, it } from 'vitest';
import { SpillFile, type SpillFileSystem } from '../../src/log/spill-file.js';

const CAPACITY = 64;

// A call no correct spill file makes (an empty write or read, a write past the ring's end,
// one descriptor asked more often than any test needs): thrown as an assertion where it
// happens, and listed, so a test whose spill file swallowed it fails at its end all the same.
const misuse: string[] = [];
const MAX_CALLS = 200;
function misused(what: string): never {
  misuse.push(what);
  throw new AssertionError({ message: `spill file misused the disk: ${what}` });
}
afterEach(() => {
  expect(misuse.splice(0)).toEqual([]);
});

/** A ring-sized file per descriptor; each call takes at most `chunk` bytes; async writes wait in `pending`. */
function memoryDisk(options: { inline?: boolean; chunk?: number; readChunk?: number } = {}) {
  const files = new Map<number, Buffer>();
  const closed: number[] = [];
  const pending: (() => void)[] = [];
  const chunk = options.chunk ?? Number.POSITIVE_INFINITY;
  let next = 10;
  let calls = 0;
  const counted = (what: string, length: number, position: number) => {
    calls += 1;
    if (calls > MAX_CALLS) misused(`more than ${MAX_CALLS} calls`);
    if (length === 0) misused(`an empty ${what} at ${position}`);
    if (position + length > CAPACITY) misused(`a ${what} of ${length} at ${position}, past the ring's end`);
  };
  const fs: SpillFileSystem = {
    inline: options.inline ?? true,
    create() {
      files.set(next, Buffer.alloc(CAPACITY, '.'));
      return next++;
    },
    write(fd, bytes, position) {
      counted('write', bytes.length, position);
      const count = Math.min(bytes.length, chunk);
      Buffer.from(bytes.subarray(0, count)).copy(files.get(fd)!, position);
      return count;
    },
    writeAsync(fd, buffers, position, done) {
      counted(
        'batch',
        buffers.reduce((sum, b) => sum + b.length, 0),
        position,
      );
      pending.push(() => {
        const all = Buffer.concat(buffers);
        const count = Math.min(all.length, chunk);
        all.subarray(0, count).copy(files.get(fd)!, position);
        done(null, count);
      });
    },
    read(fd, into, position) {
      counted('read', into.length, position);
      const count = Math.min(into.length, options.readChunk ?? Number.POSITIVE_INFINITY);
      files.get(fd)!.copy(into, 0, position, position + count);
      return count;
    },
    close(fd) {
      closed.push(fd);
    },
  };
  const settle = () => {
    while (pending.length > 0) pending.shift()!();
  };
  return { fs, files, closed, pending, settle };
}

/** Reads give `cut` bytes in all, then one read returns nothing; asked again, that is misuse. */
function shortAfter(fs: SpillFileSystem, cut: number): void {
  const read = fs.read;
  let given = 0;
  let gaveNothing = false;
  fs.read = (fd, into, position) => {
    if (given >= cut) {
      if (gaveNothing) misused('a read asked again after it returned nothing');
      gaveNothing = true;
      return 0;
    }
    const got = read(fd, into.subarray(0, Math.min(into.length, cut - given)), position);
    given += got;
    return got;
  };
}

function spillFile(fs: SpillFileSystem, queueBytes = 1024) {
  const released: Buffer[] = [];
  const failures: Error[] = [];
  const spill = new SpillFile({
    dir: '/unused',
    capacity: CAPACITY,
    queueBytes,
    fs,
    release: (bytes) => released.push(bytes),
    onFailure: (error) => failures.push(error),
  });
  return { spill, released, failures };
}

const text = (from: number, length: number) =>
  Buffer.from(Array.from({ length }, (_, i) => String.fromCharCode(65 + ((from + i) % 26))).join(''));

describe('SpillFile on a disk that takes part of each write or read', () => {
  it('writes at once in pieces, across the ring end, and reads back every byte in order', () => {
    const disk = memoryDisk({ chunk: 5, readChunk: 3 });
    const { spill, released } = spillFile(disk.fs);
    // Five blocks of 20 bytes: the third and the fifth cross the 64-byte ring's end.
    for (let start = 0; start < 100; start += 20) expect(spill.enqueue(start, text(start, 20))).toBe(true);
    expect(released).toHaveLength(5);
    expect(spill.read(36, 100).toString()).toBe(text(36, 64).toString());
    expect(spill.read(60, 70).toString()).toBe(text(60, 10).toString());
  });

  it('writes queued blocks in pieces through the thread pool, a block cut by the ring end included', () => {
    const disk = memoryDisk({ inline: false, chunk: 7 });
    const { spill, released } = spillFile(disk.fs);
    for (let start = 0; start < 100; start += 20) spill.enqueue(start, text(start, 20));
    // Read from memory while the writes wait.
    expect(spill.queuedBytes).toBe(100);
    expect(spill.read(36, 100).toString()).toBe(text(36, 64).toString());
    disk.settle();
    expect(spill.queuedBytes).toBe(0);
    expect(released).toHaveLength(5);
    expect(spill.read(36, 100).toString()).toBe(text(36, 64).toString());
    // The file itself holds the newest lap: offsets 64..99 at 0..35, 36..63 where they were.
    expect(disk.files.get(10)!.toString()).toBe(text(64, 36).toString() + text(36, 28).toString());
  });

  it('refuses to read what no write put there, and names the offset of a read that gets nothing', () => {
    const disk = memoryDisk();
    expect(() => spillFile(disk.fs).spill.read(0, 4)).toThrow('spill file read before any write');
    const empty = memoryDisk();
    shortAfter(empty.fs, 0);
    const { spill } = spillFile(empty.fs);
    spill.enqueue(80, text(80, 8));
    // The absolute offset, not the ring's position (16).
    expect(() => spill.read(80, 88)).toThrow('spill file short read at 80');
  });

  it('names the absolute offset where a read came back short: after a part, and past the ring end', () => {
    // 56..72 crosses the 64-byte ring's end: ring 56..63, then 0..7 (offsets 64..71).
    for (const [cut, offset] of [
      [3, 59],
      [8, 64],
      [11, 67],
    ] as const) {
      const disk = memoryDisk({ readChunk: 3 });
      shortAfter(disk.fs, cut);
      const { spill } = spillFile(disk.fs);
      spill.enqueue(56, text(56, 16));
      expect(() => spill.read(56, 72)).toThrow(`spill file short read at ${offset}`);
    }
  });

  it('fails, naming the offset, on a disk whose write takes nothing (it is not asked for ever)', () => {
    const disk = memoryDisk();
    let writes = 0;
    disk.fs.write = () => {
      writes += 1;
      if (writes > 1) misused('a write asked again after it took nothing');
      return 0;
    };
    const { spill, failures, released } = spillFile(disk.fs);
    expect(spill.enqueue(70, text(70, 8))).toBe(false);
    expect(failures.map((e) => e.message)).toEqual(['spill file write took nothing at 6']);
    expect(released).toEqual([]);
  });

  it('writes only the last ring-full of a block bigger than the ring, at once or queued', () => {
    for (const inline of [true, false]) {
      const disk = memoryDisk({ inline, chunk: 40 });
      let written = 0;
      const write = disk.fs.write;
      disk.fs.write = (fd, bytes, position) => {
        const took = write(fd, bytes, position);
        written += took;
        return took;
      };
      const { spill, failures } = spillFile(disk.fs);
      // 150 bytes from offset 10 into a 64-byte ring: offsets 96..159 are what it can hold.
      expect(spill.enqueue(10, text(10, 150))).toBe(true);
      disk.settle();
      expect(failures).toEqual([]);
      expect(spill.read(96, 160).toString()).toBe(text(96, 64).toString());
      // At once: the last 64 bytes, nothing more. Queued: the batch takes the block's head up
      // to the ring's end (54 bytes), the tail's last ring-full follows.
      expect(written).toBe(64);
      expect(disk.files.get(10)!.toString()).toBe(text(128, 32).toString() + text(96, 32).toString());
    }
  });
});

describe('SpillFile failures and close', () => {
  it('a file that cannot be made: every block refused, the failure told once, as an Error', () => {
    const disk = memoryDisk();
    let creates = 0;
    disk.fs.create = () => {
      creates += 1;
      throw 'EACCES';
    };
    const { spill, failures, released } = spillFile(disk.fs);
    expect(spill.enqueue(0, text(0, 8))).toBe(false);
    expect(spill.enqueue(8, text(8, 8))).toBe(false);
    expect(creates).toBe(1);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toBeInstanceOf(Error);
    expect(failures[0]!.message).toBe('EACCES');
    expect(released).toEqual([]);
  });

  it('a failed asynchronous write drops the queue and closes the file; later blocks are refused', () => {
    const disk = memoryDisk({ inline: false });
    const write = disk.fs.writeAsync;
    disk.fs.writeAsync = (fd, buffers, position, done) =>
      write(fd, buffers, position, () => done(new Error('EIO: i/o error, write'), 0));
    const { spill, failures, released } = spillFile(disk.fs);
    spill.enqueue(0, text(0, 8));
    spill.enqueue(8, text(8, 8));
    expect(spill.queuedBytes).toBe(16);
    disk.settle();
    expect(failures.map((e) => e.message)).toEqual(['EIO: i/o error, write']);
    expect(spill.queuedBytes).toBe(0);
    expect(released).toHaveLength(2);
    expect(spill.enqueue(16, text(16, 8))).toBe(false);
    expect(disk.closed).toEqual([10]);
    expect(disk.pending).toHaveLength(0);
  });

  it('closes the descriptor only once the write in flight completed; idle settles then', async () => {
    const disk = memoryDisk({ inline: false });
    const { spill, released } = spillFile(disk.fs);
    const first = text(0, 8);
    spill.enqueue(0, first);
    spill.enqueue(8, text(8, 8));
    let idle = false;
    const settled = spill.idle().then(() => {
      idle = true;
    });
    spill.close();
    expect(spill.enqueue(16, text(16, 8))).toBe(false);
    // The block in flight is still the thread pool's: not handed back; the waiting one is.
    expect(released.map((b) => b.toString())).toEqual([text(8, 8).toString()]);
    expect(disk.closed).toEqual([]);
    disk.settle();
    expect(disk.closed).toEqual([10]);
    await settled;
    expect(idle).toBe(true);
    expect(released).toHaveLength(1);
  });

  it('reset starts a fresh file: the old one closes, queued blocks are handed back', () => {
    const disk = memoryDisk();
    const { spill, released } = spillFile(disk.fs);
    spill.enqueue(0, text(0, 8));
    spill.reset();
    expect(disk.closed).toEqual([10]);
    expect(spill.enqueue(100, text(100, 8))).toBe(true);
    expect(spill.read(100, 108).toString()).toBe(text(100, 8).toString());
    expect(released).toHaveLength(2);
  });
});

describe('SpillFile write queue', () => {
  it('holds blocks up to its byte bound, and writes the waiting ones at once only past it', () => {
    const disk = memoryDisk({ inline: false });
    let syncWrites = 0;
    const write = disk.fs.write;
    disk.fs.write = (fd, bytes, position) => {
      syncWrites += 1;
      return write(fd, bytes, position);
    };
    const { spill, released } = spillFile(disk.fs, 48);
    // 16 bytes in flight, 32 waiting: exactly the bound, nothing written at once.
    for (let start = 0; start < 48; start += 16) expect(spill.enqueue(start, text(start, 16))).toBe(true);
    expect(spill.queuedBytes).toBe(48);
    expect(syncWrites).toBe(0);
    // Past it: the two waiting blocks are written now, the new one waits.
    expect(spill.enqueue(48, text(48, 16))).toBe(true);
    expect(syncWrites).toBe(2);
    expect(spill.queuedBytes).toBe(32);
    expect(released).toHaveLength(2);
    disk.settle();
    expect(spill.queuedBytes).toBe(0);
    expect(spill.read(0, 64).toString()).toBe(text(0, 64).toString());
  });

  it('writes a block at once when the write in flight alone fills the queue, and reads it back', () => {
    const disk = memoryDisk({ inline: false });
    const { spill, released } = spillFile(disk.fs, 16);
    expect(spill.enqueue(0, text(0, 16))).toBe(true);
    expect(spill.enqueue(16, text(16, 16))).toBe(true);
    // Written and handed back: only the block in flight is queued.
    expect(spill.queuedBytes).toBe(16);
    expect(released.map((b) => b.toString())).toEqual([text(16, 16).toString()]);
    expect(spill.read(16, 32).toString()).toBe(text(16, 16).toString());
    disk.settle();
    expect(spill.read(0, 32).toString()).toBe(text(0, 32).toString());
    // With room for two: once the waiting block is written, the new one fits the bound and waits.
    const roomy = spillFile(memoryDisk({ inline: false }).fs, 32);
    for (let start = 0; start < 48; start += 16) roomy.spill.enqueue(start, text(start, 16));
    expect(roomy.spill.queuedBytes).toBe(32);
    expect(roomy.released.map((b) => b.toString())).toEqual([text(16, 16).toString()]);
  });

  it('tells a failed write once, though the write in flight fails after it', () => {
    const disk = memoryDisk({ inline: false });
    disk.fs.write = () => {
      throw new Error('EIO: i/o error, write');
    };
    const writeAsync = disk.fs.writeAsync;
    disk.fs.writeAsync = (fd, buffers, position, done) =>
      writeAsync(fd, buffers, position, () => done(new Error('EIO: i/o error, writev'), 0));
    const { spill, failures } = spillFile(disk.fs, 16);
    spill.enqueue(0, text(0, 16));
    // The queue is full: this block is written at once, and that write fails.
    expect(spill.enqueue(16, text(16, 16))).toBe(false);
    disk.settle();
    expect(failures.map((e) => e.message)).toEqual(['EIO: i/o error, write']);
  });

  it('tells no failure of a write that completes after close()', () => {
    const disk = memoryDisk({ inline: false });
    const writeAsync = disk.fs.writeAsync;
    disk.fs.writeAsync = (fd, buffers, position, done) =>
      writeAsync(fd, buffers, position, () => done(new Error('EBADF: bad file descriptor, writev'), 0));
    const { spill, failures } = spillFile(disk.fs);
    spill.enqueue(0, text(0, 16));
    spill.close();
    spill.close();
    disk.settle();
    expect(failures).toEqual([]);
    // The one descriptor it opened is closed once, after the write.
    expect(disk.closed).toEqual([10]);
  });

  it('fails visibly when the tail of a block the ring end cut cannot be written', () => {
    const disk = memoryDisk({ inline: false });
    disk.fs.write = () => {
      throw new Error('ENOSPC: no space left on device, write');
    };
    const { spill, failures } = spillFile(disk.fs);
    // 48..80 crosses the 64-byte ring's end: its head goes in the batch, its tail after.
    spill.enqueue(48, text(48, 32));
    disk.settle();
    expect(failures.map((e) => e.message)).toEqual(['ENOSPC: no space left on device, write']);
    expect(spill.queuedBytes).toBe(0);
    expect(spill.enqueue(80, text(80, 8))).toBe(false);
  });

  it('starts afresh while a write across the ring end is in flight, and reads the new blocks back', () => {
    const disk = memoryDisk({ inline: false });
    const { spill } = spillFile(disk.fs);
    spill.enqueue(48, text(48, 32));
    spill.reset();
    spill.enqueue(200, text(200, 16));
    disk.settle();
    expect(spill.queuedBytes).toBe(0);
    expect(spill.read(200, 216).toString()).toBe(text(200, 16).toString());
  });
});
