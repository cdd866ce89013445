// The spill: history beyond the memory window lives in a file and reads back exactly as an
// all-in-memory log would; a full disk drops the file's history visibly, never the host.
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { testTmpdir } from '@procmux/test-utils';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { OutputLog } from '../../src/log/output-log.js';
import { nodeSpillFileSystem, type SpillFileSystem } from '../../src/log/spill-file.js';
import type { OutputStream } from '../../src/log/stream-runs.js';
import { heldDisk } from './held-disk.js';

const dir = mkdtempSync(join(testTmpdir(), 'procmux-spill-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KiB = 1024;
const PIECES = ['a', 'line\n', 'é', '€', '中文', '😀', '\u001b[31m', 'ß', '👍🏽', 'xyz'];

// A deterministic stream of mixed 1- to 4-byte characters, in chunks of 1 to ~40 KiB.
function* stream(totalBytes: number): Generator<{ stream: OutputStream; text: string }> {
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed;
  };
  let written = 0;
  while (written < totalBytes) {
    const units = 1 + (next() % (next() % 4 === 0 ? 40_000 : 300));
    let text = '';
    while (text.length < units) text += PIECES[next() % PIECES.length];
    written += Buffer.byteLength(text);
    yield { stream: next() % 3 === 0 ? 'stderr' : 'stdout', text };
  }
}

// A pair whose spilled log's writes wait for the test (heldDisk); its file is closed after the test.
function heldPair(memoryBytes: number) {
  const { fs, held } = heldDisk();
  const logs = pair({ memoryBytes, maxRetainedBytes: 1024 * KiB, spillFileSystem: fs });
  onTestFinished(() => logs.spilled.close());
  return { ...logs, held };
}

function pair(options: { memoryBytes: number; maxRetainedBytes: number; spillFileSystem?: SpillFileSystem }) {
  const common = {
    maxRetainedBytes: options.maxRetainedBytes,
    maxChunkBytes: 64 * KiB,
    maxUndrainedBytes: 1,
  };
  const spilled = new OutputLog({
    ...common,
    memoryBytes: options.memoryBytes,
    spillDir: dir,
    ...(options.spillFileSystem ? { spillFileSystem: options.spillFileSystem } : {}),
  });
  const reference = new OutputLog({ ...common, memoryBytes: options.maxRetainedBytes });
  return { spilled, reference };
}

// The same stream appended to each log, without yielding.
function feed(logs: OutputLog[], totalBytes: number): void {
  for (const chunk of stream(totalBytes)) for (const log of logs) log.append(chunk.stream, chunk.text);
}

function pages(log: OutputLog, stream?: OutputStream, maxBytes = 7 * KiB + 3): string[] {
  const out: string[] = [];
  let cursor = 0;
  for (;;) {
    const page = log.read({ cursor, maxBytes, ...(stream ? { stream } : {}) });
    out.push(`${page.cursor}:${page.droppedBytes}:${page.data}`);
    if (page.eof) return out;
    cursor = page.cursor;
  }
}

function spillFds(): string[] {
  const found: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith(dir)) found.push(target);
    } catch {
      // Closed meanwhile (the readdir's own descriptor).
    }
  }
  return found;
}

describe('OutputLog spill', () => {
  // A producer that never yields fills the write queue (later blocks are written at once);
  // one that yields lets the batched writes complete, around the ring's end too.
  it.each([
    ['never yields', false],
    ['yields after every chunk', true],
  ])(
    'pages every retained byte of a spilled history exactly as an in-memory log does (producer %s)',
    async (_, yields) => {
      const { spilled, reference } = pair({ memoryBytes: 64 * KiB, maxRetainedBytes: 1024 * KiB });
      for (const chunk of stream(3 * 1024 * KiB)) {
        spilled.append(chunk.stream, chunk.text);
        reference.append(chunk.stream, chunk.text);
        if (yields) await new Promise((resolve) => setImmediate(resolve));
      }
      await spilled.flushed();
      expect(spilled.diskBytes).toBeGreaterThan(900 * KiB);
      expect(spilled.memoryBytes).toBeLessThanOrEqual(64 * KiB);
      expect(spilled.memoryBytes + spilled.diskBytes).toBe(spilled.retainedBytes);
      expect(spilled.retainedBytes).toBe(reference.retainedBytes);
      expect(spilled.firstRetainedOffset).toBe(reference.firstRetainedOffset);
      expect(spilled.text()).toBe(reference.text());
      expect(pages(spilled)).toEqual(pages(reference));
      expect(pages(spilled, 'stderr')).toEqual(pages(reference, 'stderr'));
      // A cursor inside a character in the file's part moves to the next character.
      const inside = spilled.firstRetainedOffset + 100 * KiB + 1;
      expect(spilled.read({ cursor: inside, maxBytes: 1000 })).toEqual(
        reference.read({ cursor: inside, maxBytes: 1000 }),
      );
      expect(spilled.read({ cursor: 0, maxBytes: 5 })).toEqual(reference.read({ cursor: 0, maxBytes: 5 }));
      expect(spilled.tail).toBe(reference.tail);
      expect(spilled.drain()).toEqual(reference.drain());
      expect(spilled.spillError).toBeUndefined();
      spilled.close();
      await spilled.flushed();
    },
  );

  it('pages blocks whose write is still in flight exactly, from memory, and the file once written', async () => {
    const { fs: slowDisk, held } = heldDisk();
    const { spilled, reference } = pair({
      memoryBytes: 64 * KiB,
      maxRetainedBytes: 1024 * KiB,
      spillFileSystem: slowDisk,
    });
    // A failure here must not leave the file open for the tests after it.
    onTestFinished(() => spilled.close());
    feed([spilled, reference], 512 * KiB);
    expect(held).toHaveLength(1);
    // The oldest history is in the write held in flight: in memory, counted there.
    expect(spilled.firstRetainedOffset).toBe(0);
    expect(spilled.read({ cursor: 0, maxBytes: 4 * KiB })).toEqual(
      reference.read({ cursor: 0, maxBytes: 4 * KiB }),
    );
    expect(spilled.memoryBytes).toBeLessThanOrEqual(64 * KiB);
    expect(spilled.memoryBytes + spilled.diskBytes).toBe(spilled.retainedBytes);
    expect(pages(spilled)).toEqual(pages(reference));
    while (held.length > 0) {
      // Waits for the write's completion, not for time: under load a disk write can take longer
      // than any turn of the event loop (a later batch queued after it was then never released).
      await held.shift()!();
      // Every state of the queue pages the same history, pages spanning file and queue too.
      expect(pages(spilled, undefined, 64 * KiB)).toEqual(pages(reference, undefined, 64 * KiB));
      expect(pages(spilled, 'stdout', 31 * KiB)).toEqual(pages(reference, 'stdout', 31 * KiB));
      if (held.length === 0) await spilled.flushed();
    }
    expect(spilled.spillError).toBeUndefined();
    expect(spilled.text()).toBe(reference.text());
    spilled.close();
    await spilled.flushed();
    expect(spillFds()).toEqual([]);
  });

  it('complete(): an ended log that spilled keeps only its newest block in memory, pages the same, and takes more', async () => {
    // A 256 KiB window: 16 KiB blocks.
    const { spilled, reference } = pair({ memoryBytes: 256 * KiB, maxRetainedBytes: 1024 * KiB });
    onTestFinished(() => spilled.close());
    feed([spilled, reference], 3 * 1024 * KiB);
    await spilled.flushed();
    expect(spilled.memoryBytes).toBeGreaterThan(64 * KiB);
    const retained = spilled.retainedBytes;
    spilled.complete();
    await spilled.flushed();
    expect(spilled.memoryBytes).toBeLessThanOrEqual(16 * KiB);
    expect(spilled.memoryBytes + spilled.diskBytes).toBe(retained);
    expect(spilled.retainedBytes).toBe(retained);
    expect(spilled.firstRetainedOffset).toBe(reference.firstRetainedOffset);
    expect(pages(spilled)).toEqual(pages(reference));
    expect(pages(spilled, 'stderr', 13 * KiB)).toEqual(pages(reference, 'stderr', 13 * KiB));
    expect(spilled.tail).toBe(reference.tail);
    // Output after it (a late chunk) is logged and paged as before; the window refills.
    feed([spilled, reference], 600 * KiB);
    await spilled.flushed();
    expect(spilled.memoryBytes).toBeGreaterThan(64 * KiB);
    expect(spilled.memoryBytes).toBeLessThanOrEqual(256 * KiB);
    expect(spilled.text()).toBe(reference.text());
    expect(pages(spilled)).toEqual(pages(reference));
    expect(spilled.spillError).toBeUndefined();
  });

  it('complete() with spill writes still in flight pages exactly at every step, and frees each block once written', async () => {
    const { spilled, reference, held } = heldPair(256 * KiB);
    // Less than a lap of the ring (1 MiB + a block); laps past a held write: the next test.
    feed([spilled, reference], 800 * KiB);
    spilled.complete();
    expect(held.length).toBeGreaterThan(0);
    expect(pages(spilled, undefined, 64 * KiB)).toEqual(pages(reference, undefined, 64 * KiB));
    while (held.length > 0) {
      await held.shift()!();
      expect(spilled.memoryBytes + spilled.diskBytes).toBe(spilled.retainedBytes);
      expect(pages(spilled, 'stdout', 31 * KiB)).toEqual(pages(reference, 'stdout', 31 * KiB));
    }
    await spilled.flushed();
    expect(spilled.memoryBytes).toBeLessThanOrEqual(16 * KiB);
    expect(pages(spilled)).toEqual(pages(reference));
    expect(spilled.text()).toBe(reference.text());
  });

  it('pages exactly after a producer that never yields wrote laps of the ring past a write held in flight', async () => {
    // The thread pool's write lands only when released: newer bytes written over its part of
    // the ring meanwhile must not be put back under it (found with complete()'s test: the
    // first 25 bytes of 1 MiB read back from an older lap).
    const { spilled, reference, held } = heldPair(256 * KiB);
    feed([spilled, reference], 3 * 1024 * KiB);
    expect(held).toHaveLength(1);
    expect(pages(spilled, undefined, 64 * KiB)).toEqual(pages(reference, undefined, 64 * KiB));
    while (held.length > 0) await held.shift()!();
    await spilled.flushed();
    expect(spilled.spillError).toBeUndefined();
    expect(spilled.text()).toBe(reference.text());
    expect(pages(spilled)).toEqual(pages(reference));
  });

  it('complete() twice, or after close(), changes nothing more and drops nothing', async () => {
    const { spilled, reference } = pair({ memoryBytes: 256 * KiB, maxRetainedBytes: 1024 * KiB });
    onTestFinished(() => spilled.close());
    feed([spilled, reference], 2 * 1024 * KiB);
    spilled.complete();
    spilled.complete();
    await spilled.flushed();
    expect(spilled.memoryBytes).toBeLessThanOrEqual(16 * KiB);
    expect(pages(spilled)).toEqual(pages(reference));
    const held = spilled.memoryBytes;
    spilled.close();
    spilled.complete();
    await spilled.flushed();
    // Closed: the file's part reads as dropped, what memory held stays, nothing else moves.
    expect(spilled.memoryBytes).toBe(held);
    expect(spilled.retainedBytes).toBe(held);
    expect(spilled.read({ cursor: 0, maxBytes: 4 }).droppedBytes).toBe(spilled.firstRetainedOffset);
    expect(spilled.spillError).toBeUndefined();
  });

  it('complete() leaves a history that never spilled in memory, with no file', () => {
    const log = new OutputLog({ maxRetainedBytes: 1024 * KiB, memoryBytes: 256 * KiB, spillDir: dir });
    for (let i = 0; i < 30; i++) log.append('stdout', 'z'.repeat(4 * KiB));
    log.complete();
    expect(log.memoryBytes).toBe(120 * KiB);
    expect(log.diskBytes).toBe(0);
    expect(log.text()).toBe('z'.repeat(120 * KiB));
    expect(spillFds()).toEqual([]);
  });

  it('keeps a history that fits the window in memory, with no file', () => {
    const log = new OutputLog({ maxRetainedBytes: 64 * KiB, memoryBytes: 64 * KiB, spillDir: dir });
    for (let i = 0; i < 100; i++) log.append('stdout', 'x'.repeat(4 * KiB));
    expect(log.memoryBytesLimit).toBe(Number.POSITIVE_INFINITY);
    expect(log.diskBytes).toBe(0);
    expect(log.memoryBytes).toBe(64 * KiB);
    expect(spillFds()).toEqual([]);
  });

  it('leaves no name in the spill dir, and frees the file on close()', async () => {
    const log = new OutputLog({ maxRetainedBytes: 1024 * KiB, memoryBytes: 64 * KiB, spillDir: dir });
    for (let i = 0; i < 100; i++) log.append('stdout', 'y'.repeat(8 * KiB));
    await log.flushed();
    expect(log.diskBytes).toBeGreaterThan(0);
    expect(readdirSync(dir)).toEqual([]);
    const open = spillFds();
    expect(open).toHaveLength(1);
    expect(open[0]).toMatch(/\(deleted\)$/);
    const before = log.memoryBytes;
    log.close();
    log.close();
    await log.flushed();
    expect(spillFds()).toEqual([]);
    // What memory held stays readable; the file's part reads as dropped.
    expect(log.diskBytes).toBe(0);
    expect(log.retainedBytes).toBe(before);
    expect(log.read({ cursor: 0, maxBytes: 4 }).droppedBytes).toBe(log.firstRetainedOffset);
  });

  it('turns a full disk into dropped history and a spillError, and goes on logging', async () => {
    let budget = 200 * KiB;
    const enospc = () =>
      Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    const fullAfter200KiB: SpillFileSystem = {
      ...nodeSpillFileSystem,
      write(fd, bytes, position) {
        if (budget < bytes.length) throw enospc();
        budget -= bytes.length;
        return nodeSpillFileSystem.write(fd, bytes, position);
      },
      writeAsync(fd, buffers, position, done) {
        const size = buffers.reduce((sum, b) => sum + b.length, 0);
        if (budget < size) {
          setImmediate(() => done(enospc(), 0));
          return;
        }
        budget -= size;
        nodeSpillFileSystem.writeAsync(fd, buffers, position, done);
      },
    };
    const { spilled, reference } = pair({
      memoryBytes: 64 * KiB,
      maxRetainedBytes: 1024 * KiB,
      spillFileSystem: fullAfter200KiB,
    });
    for (const chunk of stream(600 * KiB)) {
      spilled.append(chunk.stream, chunk.text);
      reference.append(chunk.stream, chunk.text);
      // Yield now and then, so queued writes complete (and fail) between appends too.
      if (chunk.text.length > 1000) await new Promise((resolve) => setImmediate(resolve));
    }
    await spilled.flushed();
    expect(spilled.spillError?.message).toMatch(/ENOSPC/);
    expect(spilled.truncated).toBe(true);
    expect(spilled.diskBytes).toBe(0);
    expect(spilled.totalBytes).toBe(reference.totalBytes);
    // No silent gap: a read from 0 says how much went, and the rest is exact.
    const first = spilled.firstRetainedOffset;
    expect(first).toBeGreaterThan(500 * KiB);
    const page = spilled.read({ cursor: 0, maxBytes: 4 * KiB });
    expect(page.droppedBytes).toBe(first);
    expect(page).toEqual({ ...reference.read({ cursor: first, maxBytes: 4 * KiB }), droppedBytes: first });
    expect(spilled.text()).toBe(Buffer.from(reference.text()).subarray(first).toString());
    expect(spillFds()).toEqual([]);
    // The process ends: with no file to take it, the window stays in memory, every byte of it.
    const memory = spilled.memoryBytes;
    spilled.complete();
    expect(spilled.memoryBytes).toBe(memory);
    expect(spilled.text()).toBe(Buffer.from(reference.text()).subarray(first).toString());
  });
});
