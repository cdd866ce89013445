// Chunks given with their bytes (a pipe read) read back as the same chunks given as text, the
// buffers given are never written into, and cutting a spilled ASCII history at the cap reads
// nothing back from the file while a non-ASCII one is still cut between characters (issue 31).
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { propertyRuns, testTmpdir } from '@procmux/test-utils';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { OutputLog, type OutputLogOptions } from '../../src/log/output-log.js';
import { nodeSpillFileSystem, type SpillFileSystem } from '../../src/log/spill-file.js';
import type { OutputStream } from '../../src/log/stream-runs.js';

const spillDir = mkdtempSync(join(testTmpdir(), 'procmux-ascii-cut-'));
afterAll(() => rmSync(spillDir, { recursive: true, force: true }));

const KiB = 1024;

/** A Buffer that owns its whole ArrayBuffer, as Node hands out a pipe read (the size of a block, maybe). */
function ownBuffer(text: string): Buffer {
  const encoded = Buffer.from(text, 'utf8');
  const own = Buffer.from(new ArrayBuffer(encoded.length));
  encoded.copy(own);
  return own;
}

function view(log: OutputLog): string[] {
  const out: string[] = [];
  for (let cursor = 0; ; ) {
    const page = log.read({ cursor, maxBytes: 5 * KiB + 3 });
    out.push(`${page.cursor}:${page.droppedBytes}:${page.data}`);
    if (page.eof) break;
    cursor = page.cursor;
  }
  out.push(`first ${log.firstRetainedOffset} total ${log.totalBytes} tail ${log.tail}`);
  return out;
}

// Runs of one character, 1 to 20 KiB of bytes: below, at and above the window's 16 KiB
// blocks; ASCII and not.
const chunkArb = fc.record({
  stream: fc.constantFrom<OutputStream>('stdout', 'stderr'),
  unit: fc.constantFrom('a', 'line\n', 'é', '€x', '😀', '\u001b[1m'),
  bytes: fc.integer({ min: 1, max: 20 * KiB }),
});

function chunkText(unit: string, bytes: number): string {
  const size = Buffer.byteLength(unit);
  return unit.repeat(Math.max(1, Math.floor(bytes / size)));
}

describe('OutputLog given the bytes of pipe reads', () => {
  it('reads back what the same chunks appended as text read back, through caps and spill', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(chunkArb, { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 40 * KiB, max: 600 * KiB }),
        async (chunks, maxRetainedBytes) => {
          // A 256 KiB window: 16 KiB blocks.
          const options: OutputLogOptions = { maxRetainedBytes, memoryBytes: 256 * KiB, spillDir };
          const text = new OutputLog(options);
          const given = new OutputLog(options);
          for (const chunk of chunks) {
            const body = chunkText(chunk.unit, chunk.bytes);
            text.append(chunk.stream, body);
            given.append(chunk.stream, body, ownBuffer(body));
          }
          expect(view(given)).toEqual(view(text));
          expect(given.retainedBytes).toBe(text.retainedBytes);
          expect(given.memoryBytes + given.diskBytes).toBe(given.retainedBytes);
          text.close();
          given.close();
          await Promise.all([text.flushed(), given.flushed()]);
        },
      ),
      { numRuns: propertyRuns(60) },
    );
  });

  it('never writes into a buffer it was given, even one the size of its blocks', async () => {
    // A 1 MiB window has 64 KiB blocks: a 64 KiB read is the size of a spare block.
    const log = new OutputLog({ memoryBytes: 1024 * KiB, maxRetainedBytes: 4096 * KiB, spillDir });
    const given: { buffer: Buffer; copy: Buffer }[] = [];
    for (let i = 0; i < 64; i++) {
      const buffer = ownBuffer(String.fromCharCode(97 + (i % 26)).repeat(64 * KiB));
      given.push({ buffer, copy: Buffer.from(buffer) });
      log.append('stdout', buffer.toString('latin1'), buffer);
      // Chunks between reads go into blocks of the log's own, which grow to 64 KiB again.
      log.append('stderr', i % 4 === 3 ? 'x'.repeat(200 * KiB) : `${i}\n`);
      if (i % 8 === 7) await log.flushed();
    }
    await log.flushed();
    expect(log.diskBytes).toBeGreaterThan(0);
    for (const { buffer, copy } of given) expect(buffer.equals(copy)).toBe(true);
    log.close();
    await log.flushed();
  });
});

describe('OutputLog cuts a spilled ASCII history without reading it back', () => {
  function countingFs(): { fs: SpillFileSystem; reads: () => number } {
    let reads = 0;
    return {
      fs: {
        ...nodeSpillFileSystem,
        read(fd, into, position) {
          reads += 1;
          return nodeSpillFileSystem.read(fd, into, position);
        },
      },
      reads: () => reads,
    };
  }

  it('evicts past the cap with no read of the spill file, and pages exactly after', async () => {
    const { fs, reads } = countingFs();
    const log = new OutputLog({
      memoryBytes: 256 * KiB,
      maxRetainedBytes: 1024 * KiB,
      spillDir,
      spillFileSystem: fs,
    });
    const line = 'procmux bench 0123456789 abcdefghijklmnopqrstuvwxyz ABCDEFGHIJK\n';
    for (let i = 0; i < 160; i++) {
      const text = line.repeat(128).slice(0, 8 * KiB - (i % 3));
      log.append('stdout', text, ownBuffer(text));
      if (i % 4 === 3) await log.flushed();
      const copied = line.repeat(40);
      log.append('stdout', copied);
    }
    await log.flushed();
    expect(log.truncated).toBe(true);
    expect(log.retainedBytes).toBe(1024 * KiB);
    expect(reads()).toBe(0);
    const first = log.read({ cursor: log.firstRetainedOffset, maxBytes: 64 });
    expect(reads()).toBeGreaterThan(0);
    expect(first.data.length).toBe(64);
    log.close();
    await log.flushed();
  });

  it('cuts a non-ASCII history on a character boundary', async () => {
    const log = new OutputLog({ memoryBytes: 256 * KiB, maxRetainedBytes: 300 * KiB + 1, spillDir });
    for (let i = 0; i < 100; i++) {
      const text = '€'.repeat(1366); // 4,098 bytes
      log.append('stdout', text, ownBuffer(text));
      await log.flushed();
    }
    // The cap cuts at the first whole € at or after totalBytes - cap.
    const cut = log.totalBytes - (300 * KiB + 1);
    expect(log.firstRetainedOffset).toBe(Math.ceil(cut / 3) * 3);
    expect(log.firstRetainedOffset).toBeLessThan(log.totalBytes - log.memoryBytes);
    expect(log.read({ cursor: log.firstRetainedOffset, maxBytes: 9 }).data).toBe('€€€');
    log.close();
    await log.flushed();
  });
});
