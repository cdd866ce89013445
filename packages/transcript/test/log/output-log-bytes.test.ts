// A chunk may come with its UTF-8 bytes (an adapter that decoded them passes them on): the log
// stores those instead of encoding the text, and everything read back is the same.
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isProcmuxError } from '@procmux/core-types';
import { propertyRuns, testTmpdir } from '@procmux/test-utils';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { OutputLog, type OutputLogOptions } from '../../src/log/output-log.js';
import type { OutputStream } from '../../src/log/stream-runs.js';

const spillDir = mkdtempSync(join(testTmpdir(), 'procmux-bytes-'));
afterAll(() => rmSync(spillDir, { recursive: true, force: true }));

const character = fc.constantFrom('a', 'Z', '\n', '\u001b', 'é', '€', '中', '😀');
const chunksArb = fc.array(
  fc.record({
    stream: fc.constantFrom<OutputStream>('stdout', 'stderr'),
    text: fc.string({ unit: character, minLength: 1, maxLength: 40 }),
    withBytes: fc.boolean(),
  }),
  { maxLength: 40 },
);

/** Everything a reader can see of a log, paged in small pages. */
function view(log: OutputLog) {
  const pages: string[] = [];
  for (let cursor = 0; ; ) {
    const page = log.read({ cursor, maxBytes: 7 });
    pages.push(`${page.droppedBytes}:${page.data}`);
    if (page.eof) break;
    cursor = page.cursor;
  }
  return { pages, text: log.text(), tail: log.tail, total: log.totalBytes, first: log.firstRetainedOffset };
}

describe('OutputLog.append with the chunk bytes', () => {
  it('reads back exactly what the same chunks appended as text read back (caps and spill included)', async () => {
    await fc.assert(
      fc.asyncProperty(
        chunksArb,
        fc.integer({ min: 8, max: 400 }),
        fc.boolean(),
        async (chunks, maxRetainedBytes, spills) => {
          const options: OutputLogOptions = {
            maxRetainedBytes,
            maxUndrainedBytes: 50,
            maxChunkBytes: 64,
            ...(spills ? { memoryBytes: 64 * 1024, spillDir } : {}),
          };
          const text = new OutputLog(options);
          const bytes = new OutputLog(options);
          for (const chunk of chunks) {
            const size = Buffer.byteLength(chunk.text);
            expect(text.append(chunk.stream, chunk.text)).toBe(size);
            const given = chunk.withBytes ? Buffer.from(chunk.text, 'utf8') : undefined;
            expect(bytes.append(chunk.stream, chunk.text, given)).toBe(size);
          }
          expect(view(bytes)).toEqual(view(text));
          expect(bytes.drain()).toEqual(text.drain());
          text.close();
          bytes.close();
          await Promise.all([text.flushed(), bytes.flushed()]);
        },
      ),
      { numRuns: propertyRuns(300) },
    );
  });

  it('stores the bytes given, not an encoding of the text', () => {
    const log = new OutputLog();
    // Same length as the text, different content: what is stored is what was given.
    log.append('stdout', 'abc', Buffer.from('xyz'));
    expect(log.text()).toBe('xyz');
  });

  it('keeps only the retainable end of a bytes chunk larger than the whole cap', () => {
    const log = new OutputLog({ maxRetainedBytes: 16 });
    const chunk = `${'x'.repeat(20)}é${'y'.repeat(20)}`;
    expect(log.append('stdout', chunk, Buffer.from(chunk))).toBe(42);
    expect(log.text()).toBe('y'.repeat(16));
    expect(log.read({ cursor: 0 }).droppedBytes).toBe(26);
  });

  it.each([
    ['a string', 'abc'],
    ['too few bytes', Buffer.from('ab')],
    ['too many bytes', Buffer.alloc(10)],
    ['an array', [97, 98, 99]],
  ])('refuses bytes that cannot be the chunk (%s), naming what is allowed', (_, bytes) => {
    const log = new OutputLog();
    let error: unknown;
    try {
      log.append('stdout', 'abc', bytes as Uint8Array);
    } catch (caught) {
      error = caught;
    }
    expect(isProcmuxError(error, 'ERR_INVALID_OPTION')).toBe(true);
    expect((error as Error).message).toMatch(
      /^bytes must be the chunk's UTF-8 encoding: a Uint8Array of 3 to 9 bytes/,
    );
    expect(log.totalBytes).toBe(0);
  });
});
