import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageTranscript } from '../../src/lines/transcript.js';

async function* pieces(text: string, cuts: number[]): AsyncIterable<string> {
  let at = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    const to = Math.min(text.length, cut);
    if (to > at) yield text.slice(at, to);
    at = Math.max(at, to);
  }
  yield text.slice(at);
}

/** What log() returned when it split the whole transcript held as one string. */
function reference(text: string, options: { offset?: number; limit?: number }) {
  const lines = text === '' ? [] : text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const count = options.limit ?? 200;
  const start = options.offset ?? Math.max(0, lines.length - count);
  const slice = lines.slice(start, start + count);
  return {
    text: slice.join('\n'),
    offset: Math.min(start, lines.length),
    lines: slice.length,
    totalLines: lines.length,
    cut: start > 0 || start + slice.length < lines.length,
    droppedLines: 0,
    droppedBytes: 0,
  };
}

describe('pageTranscript', () => {
  it('pages a streamed transcript exactly as splitting the whole text did', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.stringMatching(/^[ab\n]{0,60}$/),
        fc.array(fc.nat(60), { maxLength: 6 }),
        fc.option(fc.nat(20), { nil: undefined }),
        fc.option(fc.integer({ min: 1, max: 8 }), { nil: undefined }),
        async (text, cuts, offset, limit) => {
          const options = {
            ...(offset !== undefined ? { offset } : {}),
            ...(limit !== undefined ? { limit } : {}),
          };
          expect(await pageTranscript(pieces(text, cuts), options)).toEqual(reference(text, options));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('keeps only the window while reading 500,000 lines', async () => {
    async function* flood(): AsyncIterable<string> {
      for (let i = 0; i < 1_000; i++) yield `${'a'.repeat(99)}\n`.repeat(500);
    }
    const page = await pageTranscript(flood(), {});
    expect(page).toMatchObject({ offset: 499_800, lines: 200, totalLines: 500_000, cut: true });
  });
});
