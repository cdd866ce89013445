// Property tests: for random chunk sequences mixing 1-, 2-, 3- and 4-byte characters (emoji
// included) and random caps, the log's pages and drains agree with a byte-level model.

import { propertyRuns } from '@procmux/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OutputLog } from '../../src/log/output-log.js';
import type { OutputStream } from '../../src/log/stream-runs.js';

interface Chunk {
  stream: OutputStream;
  text: string;
}

const character = fc.oneof(
  fc.constantFrom('a', 'Z', '\n', '\u001b', 'é', 'ß', '€', '中', '😀', '🎉', '👍🏽'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
const chunkArb: fc.Arbitrary<Chunk> = fc.record({
  stream: fc.constantFrom<OutputStream>('stdout', 'stderr'),
  text: fc.string({ unit: character, minLength: 1, maxLength: 12 }),
});
const chunksArb = fc.array(chunkArb, { minLength: 0, maxLength: 30 });

const isContinuation = (byte: number | undefined) => byte !== undefined && (byte & 0xc0) === 0x80;

/** The bytes everything wrote, and the stream of each byte. */
function model(chunks: Chunk[]) {
  const bytes = Buffer.from(chunks.map((c) => c.text).join(''), 'utf8');
  const streams: OutputStream[] = [];
  for (const chunk of chunks) {
    for (let i = 0; i < Buffer.byteLength(chunk.text); i++) streams.push(chunk.stream);
  }
  /** The first character boundary at or after offset. */
  const ceil = (offset: number) => {
    let at = Math.max(0, offset);
    while (isContinuation(bytes[at])) at++;
    return Math.min(at, bytes.length);
  };
  /** The text of [from, to) restricted to one stream (or both). */
  const textOf = (from: number, to: number, stream?: OutputStream) => {
    const picked: number[] = [];
    for (let i = from; i < to; i++) if (stream === undefined || streams[i] === stream) picked.push(bytes[i]!);
    return Buffer.from(picked).toString('utf8');
  };
  return { bytes, ceil, textOf };
}

function fill(log: OutputLog, chunks: Chunk[]) {
  for (const chunk of chunks) log.append(chunk.stream, chunk.text);
}

const capsArb = fc.record({
  maxRetainedBytes: fc.integer({ min: 1, max: 160 }),
  maxChunkBytes: fc.integer({ min: 4, max: 48 }),
});

describe('OutputLog properties', () => {
  it('paging read() from 0 to eof reassembles exactly the retained history, in whole characters', () => {
    fc.assert(
      fc.property(chunksArb, capsArb, fc.integer({ min: 4, max: 48 }), (chunks, caps, wantBytes) => {
        const log = new OutputLog(caps);
        fill(log, chunks);
        const m = model(chunks);
        const first = m.ceil(m.bytes.length - caps.maxRetainedBytes);
        expect(log.totalBytes).toBe(m.bytes.length);
        expect(log.firstRetainedOffset).toBe(first);
        expect(log.truncated).toBe(first > 0 || m.bytes.length > Math.min(30_000, caps.maxRetainedBytes));

        const maxBytes = Math.min(wantBytes, caps.maxChunkBytes);
        let cursor = 0;
        let pages = '';
        for (let n = 0; ; n++) {
          const page = log.read({ cursor, maxBytes });
          expect(page.droppedBytes).toBe(n === 0 ? first : 0);
          const from = Math.max(cursor, first);
          // Every page is exactly the model's bytes between two character boundaries.
          expect(Buffer.from(page.data, 'utf8').equals(m.bytes.subarray(from, page.cursor))).toBe(true);
          expect(isContinuation(m.bytes[page.cursor])).toBe(false);
          expect(Buffer.from(page.data, 'utf8').toString('utf8')).toBe(page.data);
          expect(Buffer.byteLength(page.data)).toBeLessThanOrEqual(maxBytes);
          expect(page.eof).toBe(page.cursor === m.bytes.length);
          pages += page.data;
          if (page.eof) break;
          expect(page.cursor).toBeGreaterThan(from);
          cursor = page.cursor;
        }
        expect(pages).toBe(m.bytes.subarray(first).toString('utf8'));
        expect(pages).toBe(log.text());
      }),
      { numRuns: propertyRuns(400) },
    );
  });

  it('a cursor anywhere, even inside a character or discarded history, reads from the next boundary', () => {
    fc.assert(
      fc.property(chunksArb, capsArb, fc.double({ min: 0, max: 1, noNaN: true }), (chunks, caps, where) => {
        const log = new OutputLog(caps);
        fill(log, chunks);
        const m = model(chunks);
        const first = m.ceil(m.bytes.length - caps.maxRetainedBytes);
        const cursor = Math.floor(where * m.bytes.length);
        const page = log.read({ cursor });
        const from = m.ceil(Math.max(cursor, first));
        expect(page.droppedBytes).toBe(Math.max(0, first - cursor));
        expect(Buffer.from(page.data, 'utf8').equals(m.bytes.subarray(from, page.cursor))).toBe(true);
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it('a stream filter pages exactly that stream of the retained history', () => {
    fc.assert(
      fc.property(
        chunksArb,
        capsArb,
        fc.constantFrom<OutputStream>('stdout', 'stderr'),
        (chunks, caps, stream) => {
          const log = new OutputLog(caps);
          fill(log, chunks);
          const m = model(chunks);
          const first = m.ceil(m.bytes.length - caps.maxRetainedBytes);
          let cursor = 0;
          let pages = '';
          for (;;) {
            const page = log.read({ cursor, stream, maxBytes: caps.maxChunkBytes });
            expect(Buffer.byteLength(page.data)).toBeLessThanOrEqual(caps.maxChunkBytes);
            pages += page.data;
            if (page.eof) break;
            expect(page.cursor).toBeGreaterThan(cursor);
            cursor = page.cursor;
          }
          expect(pages).toBe(m.textOf(first, m.bytes.length, stream));
        },
      ),
      { numRuns: propertyRuns(300) },
    );
  });

  it('drains between appends return each stream’s new output, dropping the oldest beyond the cap, and history stays cut at the same place', () => {
    const stepArb = fc.oneof(chunkArb, fc.constant('drain' as const));
    fc.assert(
      fc.property(
        fc.array(stepArb, { maxLength: 40 }),
        fc.integer({ min: 1, max: 80 }),
        fc.integer({ min: 1, max: 80 }),
        (steps, maxUndrainedBytes, maxRetainedBytes) => {
          const log = new OutputLog({ maxUndrainedBytes, maxRetainedBytes });
          const cap = Math.min(maxUndrainedBytes, maxRetainedBytes);
          const written: Chunk[] = [];
          let drainedTo = 0;
          for (const step of [...steps, 'drain' as const]) {
            if (step !== 'drain') {
              log.append(step.stream, step.text);
              written.push(step);
              continue;
            }
            const m = model(written);
            const total = m.bytes.length;
            const from = Math.max(drainedTo, m.ceil(total - cap));
            const drained = log.drain();
            expect(drained.droppedBytes).toBe(from - drainedTo);
            expect(drained.stdout).toBe(m.textOf(from, total, 'stdout'));
            expect(drained.stderr).toBe(m.textOf(from, total, 'stderr'));
            expect(Buffer.byteLength(drained.stdout) + Buffer.byteLength(drained.stderr)).toBeLessThanOrEqual(
              cap,
            );
            drainedTo = total;
            // Looking at history between appends sees the same cut as looking once at the end.
            const first = m.ceil(total - maxRetainedBytes);
            expect(log.firstRetainedOffset).toBe(first);
            expect(log.text()).toBe(m.bytes.subarray(first).toString('utf8'));
          }
        },
      ),
      { numRuns: propertyRuns(400) },
    );
  });

  it('the tail is the last 2,000 characters of retained history', () => {
    const bigChunk = fc.record({
      stream: fc.constantFrom<OutputStream>('stdout', 'stderr'),
      text: fc.string({ unit: character, minLength: 1, maxLength: 400 }),
    });
    fc.assert(
      fc.property(
        fc.array(bigChunk, { maxLength: 20 }),
        fc.integer({ min: 1, max: 12_000 }),
        (chunks, max) => {
          const log = new OutputLog({ maxRetainedBytes: max });
          fill(log, chunks);
          expect(log.tail).toBe([...log.text()].slice(-2000).join(''));
        },
      ),
      { numRuns: propertyRuns(150) },
    );
  });
});
