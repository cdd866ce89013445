// The memory window a spilling log keeps, and what its spill costs: the newest history is paged
// from memory, old ASCII history with no byte read back to find a character, the file is written in blocks (not bytes),
// flushed() waits for the writes under way, and a log that never spills holds about its cap
// however much is written through it. Cuts of a spilled history land on characters wherever
// ASCII and other text alternate in the file.
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testTmpdir } from '@procmux/test-utils';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { OutputLog, type OutputLogOptions } from '../../src/log/output-log.js';
import { nodeSpillFileSystem, type SpillFileSystem } from '../../src/log/spill-file.js';
import { heldDisk } from './held-disk.js';

const spillDir = mkdtempSync(join(testTmpdir(), 'procmux-spill-window-'));
afterAll(() => rmSync(spillDir, { recursive: true, force: true }));

const KiB = 1024;
const MiB = 1024 * KiB;
// A 64 KiB window (the smallest allowed): its blocks are 4 KiB.
const WINDOW = 64 * KiB;

/** node:fs, counting reads and writes of the spill file. */
function countingFs(): { fs: SpillFileSystem; reads: () => number; writes: () => number } {
  let reads = 0;
  let writes = 0;
  return {
    fs: {
      ...nodeSpillFileSystem,
      read(fd, into, position) {
        reads += 1;
        return nodeSpillFileSystem.read(fd, into, position);
      },
      write(fd, bytes, position) {
        writes += 1;
        return nodeSpillFileSystem.write(fd, bytes, position);
      },
    },
    reads: () => reads,
    writes: () => writes,
  };
}

function spilling(options: OutputLogOptions): OutputLog {
  const log = new OutputLog({ memoryBytes: WINDOW, spillDir, ...options });
  onTestFinished(async () => {
    log.close();
    await log.flushed();
  });
  return log;
}

// Mixed 1- to 4-byte characters, a deterministic 1 to ~9 KiB a chunk.
function* mixed(totalBytes: number): Generator<string> {
  const pieces = ['plain text ', 'é', '€', '😀', 'line\n'];
  let seed = 11;
  let written = 0;
  while (written < totalBytes) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const text = pieces[seed % pieces.length]!.repeat(1 + (seed % 900));
    written += Buffer.byteLength(text);
    yield text;
  }
}

describe('a spilling log keeps its memory window', () => {
  it('holds the newest history in memory, within the window: a page of it reads nothing from the file', () => {
    const { fs, reads } = countingFs();
    const log = spilling({ maxRetainedBytes: 4 * MiB, spillFileSystem: fs });
    for (const text of mixed(2 * MiB)) {
      log.append('stdout', text);
      expect(log.memoryBytes).toBeLessThanOrEqual(WINDOW);
    }
    expect(log.diskBytes).toBeGreaterThan(MiB);
    // The newest 28 KiB (the window less its slack blocks, and a block) are in memory.
    const from = log.totalBytes - 28 * KiB;
    const page = log.read({ cursor: from, maxBytes: 28 * KiB });
    expect(page.eof).toBe(true);
    expect(reads()).toBe(0);
    expect(Buffer.byteLength(page.data)).toBeGreaterThan(28 * KiB - 4);
  });

  it('writes the file in blocks of a sixteenth of the window, not a write per few bytes', () => {
    const { fs, writes } = countingFs();
    const log = spilling({ maxRetainedBytes: 4 * MiB, spillFileSystem: fs });
    for (let i = 0; i < 256; i++) log.append('stdout', 'x'.repeat(4 * KiB));
    // 1 MiB written, of which the window keeps about half: about 240 blocks of 4 KiB went to the file.
    expect(log.diskBytes).toBeGreaterThan(900 * KiB);
    expect(writes()).toBeLessThanOrEqual(MiB / (4 * KiB));
  });

  it('pages old ASCII history from its first retained byte with no byte read back to find a character', () => {
    const { fs, reads } = countingFs();
    const log = spilling({ maxRetainedBytes: MiB, spillFileSystem: fs });
    for (let i = 0; log.totalBytes < 3 * MiB; i++) log.append('stdout', `line ${i}\n`.repeat(1 + (i % 300)));
    const first = log.firstRetainedOffset;
    expect(log.totalBytes - first).toBeGreaterThan(900 * KiB);
    const page = (cursor: number) => {
      const before = reads();
      const read = log.read({ cursor, maxBytes: KiB });
      return { read, reads: reads() - before };
    };
    const oldest = page(0);
    const deeper = page(first + 64);
    expect(oldest.read.droppedBytes).toBe(first);
    expect(oldest.read.data).toBe(log.text().slice(0, KiB));
    // Every offset of an ASCII stretch is a character: a page is the one read of its bytes,
    // none to find where its first or last character starts (each was 2 with the end's byte).
    expect(oldest.reads).toBe(1);
    expect(deeper.reads).toBe(1);
  });

  it('flushed() settles once every spill write under way has completed, not before', async () => {
    const { fs, held } = heldDisk();
    const log = spilling({ maxRetainedBytes: MiB, spillFileSystem: fs });
    for (let i = 0; i < 40; i++) log.append('stdout', `${i} `.repeat(2 * KiB));
    expect(held.length).toBeGreaterThan(0);
    expect(log.flushed()).toBeInstanceOf(Promise);
    let settled = false;
    const flushed = log.flushed().then(() => {
      settled = true;
    });
    let inFlight = 0;
    while (held.length > 0) {
      // Resolves once the log heard the write complete (and sent the next batch, if any).
      await held.shift()!();
      if (held.length > 0) {
        inFlight += 1;
        expect(settled).toBe(false);
      }
    }
    expect(inFlight).toBeGreaterThan(0);
    await flushed;
    expect(settled).toBe(true);
    expect(log.memoryBytes + log.diskBytes).toBe(log.retainedBytes);
  });
});

describe('a log that never spills', () => {
  it('holds about its cap in memory however much is written through it', () => {
    // A cap within the default window: no file, all in memory blocks.
    const log = new OutputLog({ maxRetainedBytes: 256 * KiB });
    expect(log.memoryBytesLimit).toBe(Number.POSITIVE_INFINITY);
    const chunk = 'z'.repeat(64 * KiB);
    log.append('stdout', chunk);
    const before = process.memoryUsage().arrayBuffers;
    for (let i = 0; i < 1024; i++) log.append('stdout', chunk);
    const grown = process.memoryUsage().arrayBuffers - before;
    // 64 MiB went through a 256 KiB cap: the blocks dropped are reused, not kept.
    expect(grown).toBeLessThan(16 * MiB);
    expect(log.retainedBytes).toBe(256 * KiB);
    expect(log.memoryBytes).toBe(256 * KiB);
  });
});

describe('the default spill dir', () => {
  it("is procmux-output in the OS temp dir, made when first needed, and the file's name goes at once", async () => {
    const log = new OutputLog({ maxRetainedBytes: MiB, memoryBytes: WINDOW });
    onTestFinished(async () => {
      log.close();
      await log.flushed();
    });
    for (let i = 0; i < 64; i++) log.append('stdout', 'd'.repeat(4 * KiB));
    expect(log.spillError).toBeUndefined();
    expect(log.diskBytes).toBeGreaterThan(0);
    const dir = join(tmpdir(), 'procmux-output');
    const open = readdirSync('/proc/self/fd').flatMap((fd) => {
      try {
        return [readlinkSync(`/proc/self/fd/${fd}`)];
      } catch {
        return [];
      }
    });
    expect(open.filter((target) => target.startsWith(`${dir}/procmux-output-${process.pid}-`))).toHaveLength(
      1,
    );
  });
});

describe('OutputLog.bytesBetween', () => {
  it('fills the start of a larger scratch buffer with exactly the bytes asked for', () => {
    const log = new OutputLog();
    log.append('stdout', 'héllo\nwörld\n');
    const scratch = Buffer.alloc(64, '\n');
    const bytes = log.bytesBetween(3, 8, scratch);
    expect(bytes.length).toBe(5);
    expect(bytes.toString('utf8')).toBe('llo\nw');
    expect(bytes.buffer).toBe(scratch.buffer);
  });

  it('reads a range at each edge of the retained history and refuses one a byte past any edge', () => {
    const log = new OutputLog({ maxRetainedBytes: 100 });
    log.append('stdout', 'x'.repeat(60));
    log.append('stdout', 'y'.repeat(70));
    const first = log.firstRetainedOffset;
    const total = log.totalBytes;
    expect(first).toBeGreaterThan(0);
    const exact = Buffer.alloc(total - first);
    // Every edge at once: the first retained byte, the end, a buffer exactly as long.
    expect(log.bytesBetween(first, total, exact).toString()).toBe(log.text());
    expect(log.bytesBetween(total, total, Buffer.alloc(0)).length).toBe(0);
    expect(log.bytesBetween(first + 5, first + 5, Buffer.alloc(0)).length).toBe(0);
    const refused = [
      [first - 1, total, Buffer.alloc(total - first + 1)], // starts in dropped history
      [first + 10, first + 9, Buffer.alloc(8)], // ends before it starts
      [first, total + 1, Buffer.alloc(total - first + 1)], // ends past the history
      [first, total, Buffer.alloc(total - first - 1)], // a buffer a byte too short
    ] as const;
    for (const [from, to, into] of refused) {
      expect(() => log.bytesBetween(from, to, into)).toThrow(
        new RangeError(
          `bytes ${from}-${to} are not within the retained ${first}-${total} or longer than ${into.length}`,
        ),
      );
    }
  });
});

describe('cutting a spilled history where ASCII and other text alternate', () => {
  // Each cut is checked against a log that holds the same history all in memory.
  it('lands on the same character boundary as an all-in-memory log, a chunk beyond the cap included', () => {
    const cap = 96 * KiB + 1;
    const log = spilling({ maxRetainedBytes: cap });
    const reference = new OutputLog({ maxRetainedBytes: cap, memoryBytes: cap });
    for (let i = 0; i < 90; i++) {
      const text =
        i === 45
          ? // A chunk larger than the whole cap: the history starts afresh inside it.
            'b'.repeat(cap + 5000)
          : i % 3 === 0
            ? '€'.repeat(1000 + i * 7)
            : i % 3 === 1
              ? 'a'.repeat(5000 + i * 13)
              : '😀'.repeat(700 + i);
      log.append('stdout', text);
      reference.append('stdout', text);
      expect(log.firstRetainedOffset).toBe(reference.firstRetainedOffset);
      expect(log.read({ cursor: 0, maxBytes: 64 })).toEqual(reference.read({ cursor: 0, maxBytes: 64 }));
    }
    expect(log.diskBytes).toBeGreaterThan(32 * KiB);
    expect(log.text()).toBe(reference.text());
  });

  it('reads nothing back to cut an ASCII stretch, from its first byte on', () => {
    const { fs, reads } = countingFs();
    const cap = 128 * KiB;
    const log = spilling({ maxRetainedBytes: cap, spillFileSystem: fs });
    // The first 4 KiB block is not ASCII; every later one is. The cut reaches the first ASCII
    // byte (offset 4096) exactly when 4 KiB more than the cap was written.
    log.append('stdout', 'é'.repeat(2 * KiB));
    while (log.totalBytes < cap + 4 * KiB) log.append('stdout', 'a'.repeat(4 * KiB));
    expect(log.firstRetainedOffset).toBe(4 * KiB);
    while (log.totalBytes < cap + 64 * KiB) log.append('stdout', 'a'.repeat(4 * KiB));
    expect(log.firstRetainedOffset).toBe(64 * KiB);
    expect(log.diskBytes).toBeGreaterThan(0);
    expect(reads()).toBe(0);
  });
});
