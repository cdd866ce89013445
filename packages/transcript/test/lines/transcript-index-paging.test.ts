// The line index paged against stripping the whole history (moved from @procmux/sessions'
// tests: it tests this package's TranscriptIndex, through the public API a session uses).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageTranscript, transcriptChunks } from '../../src/index.js';
import { indexed } from './indexed.js';

describe('TranscriptIndex', () => {
  it('pages exactly as stripping the whole history does, however the output was chunked', async () => {
    const piece = fc.constantFrom(
      'a',
      'bb',
      '\n',
      '\r\n',
      '\x1b[31m',
      '\x1b[0m',
      '\r',
      'x'.repeat(900),
      // Longer than the stripper's 4,096-unit row: it wraps softly and leaves `pending`.
      'y'.repeat(3000),
      '\x1b[2K',
      // What a plain chunk must not count as text: a line feed inside a title (an OSC string
      // cut across chunks), C1 controls, BEL, backspace, and non-ASCII text.
      '\x1b]0;title',
      '\x07',
      '\x1b',
      '\x9b1m',
      '\x9d2;t\n',
      '\b',
      'é',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.array(piece, { maxLength: 40 }).map((p) => p.join('')),
          { maxLength: 60 },
        ),
        fc.option(fc.nat(120), { nil: undefined }),
        fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }),
        fc.boolean(),
        async (chunks, offset, limit, sized) => {
          const { log, index } = indexed(chunks, sized);
          const options = {
            ...(offset !== undefined ? { offset } : {}),
            ...(limit !== undefined ? { limit } : {}),
          };
          const whole = await pageTranscript(transcriptChunks(log, undefined, 4096), options);
          expect(await index.page(log, options, 4096)).toEqual(whole);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('places no checkpoint at a line feed inside a string: it ends no line there', async () => {
    // A checkpoint is due (over 16 KiB since the last), and the chunk's last line feed is part
    // of an OSC title (C1-introduced, or begun with ESC in an earlier chunk).
    for (const chunks of [
      ['y'.repeat(20_000), `${'x'.repeat(2_000)}\x9d2;t\nafter`],
      ['y'.repeat(20_000), '\x1b]0;title', `${'x'.repeat(2_000)}\nafter\x07more\n`],
    ]) {
      const { log, index } = indexed(chunks, false);
      for (const options of [{}, { offset: 0, limit: 5 }, { offset: 1, limit: 2 }]) {
        const whole = await pageTranscript(transcriptChunks(log, undefined, 4096), options);
        expect(await index.page(log, options, 4096)).toEqual(whole);
      }
    }
  });

  it('figure: a page of a 20 MB history, indexed against re-stripping it (no assertion on time)', async () => {
    const chunk = `${Array.from({ length: 1000 }, (_, i) => `\x1b[32mline\x1b[0m ${i} ${'y'.repeat(12)}`).join('\r\n')}\r\n`;
    const chunks = Array.from({ length: 600 }, () => chunk);
    const { log, index } = indexed(chunks, false);
    let t = performance.now();
    const fast = await index.page(log, { offset: 300_000, limit: 200 }, 4096);
    const indexedMs = performance.now() - t;
    t = performance.now();
    const slow = await pageTranscript(transcriptChunks(log, undefined, 4096), {
      offset: 300_000,
      limit: 200,
    });
    const streamedMs = performance.now() - t;
    expect(fast).toEqual(slow);
    console.info(
      `[transcript-index] ${(log.totalBytes / 1e6).toFixed(1)} MB: indexed page ${indexedMs.toFixed(2)} ms, ` +
        `re-stripped ${streamedMs.toFixed(1)} ms (${(streamedMs / indexedMs).toFixed(0)}x)`,
    );
  });
});
