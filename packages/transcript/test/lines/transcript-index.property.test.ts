// A pipe's line index against the plain reading of the same history: every page, the whole
// transcript, and each line start it hands a reader are what stripping the history gives.
import { stripAnsi } from '@procmux/ansi';
import { propertyRuns } from '@procmux/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageTranscript, transcriptChunks } from '../../src/lines/transcript.js';
import { indexed, joined } from './indexed.js';

const piece = fc.constantFrom(
  'a',
  'é',
  '\n',
  '\r\n',
  '\r',
  '\x1b[31m',
  '\x1b[0m',
  // Lines enough to pass a checkpoint interval (16 KiB) in a few pieces.
  'plain line\n'.repeat(400),
  'ünïcode line\n'.repeat(300),
  // A chunk's text after its last line feed longer than a checkpoint allows (1,024 units).
  'x'.repeat(1_500),
  // A row longer than the stripper's 4,096 units: it wraps softly.
  'y'.repeat(5_000),
  // A line feed inside a title (an OSC string): it ends no line.
  '\x1b]0;title\n',
  '\x07',
  '\x1b',
  '\x9d2;t\n',
);

describe('TranscriptIndex over a pipe (property)', () => {
  it('pages, streams and starts lines exactly as stripping the whole history does', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.array(piece, { maxLength: 12 }).map((p) => p.join('')),
          { maxLength: 30 },
        ),
        fc.nat(6_000),
        fc.integer({ min: 1, max: 50 }),
        fc.boolean(),
        fc.constantFrom(4, 100, 4096),
        async (chunks, offset, limit, sized, pageBytes) => {
          const { log, index } = indexed(chunks, sized);
          const plain = () => transcriptChunks(log, undefined, 4096);
          for (const options of [
            {},
            { limit },
            { offset, limit },
            { offset: Math.floor(offset / 7), limit },
          ]) {
            expect(await index.page(log, options, pageBytes)).toEqual(await pageTranscript(plain(), options));
          }
          const whole = await joined(plain());
          expect(await joined(index.chunks(log, pageBytes))).toBe(whole);
          // A fresh stripper from any line start reads the rest of the transcript, from that line.
          const lines = whole.split('\n');
          const history = Buffer.from(log.text(), 'utf8');
          const starts = (await index.lineStarts(log))!;
          expect(starts[0]).toEqual({ offset: 0, line: 0 });
          for (const start of starts) {
            const rest = history.subarray(start.offset).toString('utf8');
            expect(stripAnsi(rest).split('\n')).toEqual(lines.slice(start.line));
          }
        },
      ),
      { numRuns: propertyRuns(150) },
    );
  });

  it('places no checkpoint where a chunk with no line feed starts, inside a line', async () => {
    // A checkpoint is due (over 16 KiB since the last) when a short chunk with no line feed comes.
    const { log, index } = indexed(['start\n', 'y'.repeat(20_000), 'abc', '\nnext\n'], false);
    expect(await index.page(log, { offset: 1, limit: 1 }, 4096)).toMatchObject({
      text: `${'y'.repeat(20_000)}abc`,
      offset: 1,
      totalLines: 3,
    });
    // Where "abc" begins (after "start\n" and the 20,000 y's) no line starts.
    expect((await index.lineStarts(log))!.map((start) => start.offset)).not.toContain(20_006);
  });

  it('reads about a page from the nearest checkpoint, deep in a big history', async () => {
    const chunks: string[] = [];
    for (let i = 0; i < 40_000; i += 500) {
      chunks.push(`${Array.from({ length: 500 }, (_, j) => `line ${i + j}`).join('\r\n')}\r\n`);
    }
    for (const sized of [false, true]) {
      const { log, index } = indexed(chunks, sized);
      let bytesRead = 0;
      const read = log.read.bind(log);
      log.read = (options) => {
        const page = read(options);
        bytesRead += Buffer.byteLength(page.data);
        return page;
      };
      const page = await index.page(log, { offset: 30_000, limit: 3 }, 4096);
      expect(page).toMatchObject({ text: 'line 30000\nline 30001\nline 30002', totalLines: 40_000 });
      // The history is ~450 KB; a checkpoint every 16 KiB leaves at most about that to read.
      expect(log.totalBytes).toBeGreaterThan(400_000);
      expect(bytesRead).toBeLessThan(40_000);
      const starts = (await index.lineStarts(log))!;
      // A start about every 16 KiB, no closer, no further than a chunk more.
      for (let i = 1; i < starts.length; i++) {
        const gap = starts[i]!.offset - starts[i - 1]!.offset;
        expect(gap).toBeGreaterThanOrEqual(16 * 1024);
        expect(gap).toBeLessThan(16 * 1024 + 7_000);
      }
    }
  });
});
