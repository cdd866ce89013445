// The streamed excerpt against the string cut, over the edges the mutation run found untested
// (stryker.config.mjs, part lines): budgets from the smallest room up, so the head, the tail and
// the line cut inside the head fall anywhere; surrogate pairs at every cut; error words
// straddling the head's end and the chunks; and a transcript held whole to one character over.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { budgetTranscript } from '../../src/excerpt/transcript-excerpt.js';
import { applyOutputBudget, bodyRoom } from '../../src/excerpt/truncate.js';

async function* chunked(text: string, size: number): AsyncIterable<string> {
  for (let at = 0; at < text.length; at += size) yield text.slice(at, at + size);
}

const WORDS = ['error', 'Exception', 'TRACEBACK', 'fatal', 'failed', 'panic'];

/** A line of `n` filler characters (ASCII, 2-byte or surrogate pairs) with an error word at `at`. */
const line = fc.oneof(
  fc
    .record({
      n: fc.integer({ min: 0, max: 900 }),
      fill: fc.constantFrom('a', 'é', '😀', 'a😀'),
      word: fc.option(fc.constantFrom(...WORDS), { nil: undefined }),
      at: fc.double({ min: 0, max: 1, noNaN: true }),
    })
    .map(({ n, fill, word, at }) => {
      const filler = fill.repeat(Math.ceil(n / fill.length)).slice(0, n);
      // Never split a pair when placing the word.
      let cut = Math.floor(filler.length * at);
      if (cut > 0 && /[\udc00-\udfff]/.test(filler[cut] ?? '')) cut -= 1;
      return word === undefined ? filler : `${filler.slice(0, cut)}${word}${filler.slice(cut)}`;
    }),
  // Two error words in one long line: one in the head, one past it.
  fc
    .record({ a: fc.integer({ min: 0, max: 700 }), b: fc.integer({ min: 0, max: 900 }) })
    .map(({ a, b }) => `${'c'.repeat(a)}failed${'d'.repeat(b)}panic${'e'.repeat(a)}`),
  fc.constantFrom('', 'ok', 'Error: boom', '😀', 'x failed'),
);

describe('budgetTranscript, edges', () => {
  it('cuts any budget, chunking and hold limit exactly as applyOutputBudget cuts the string', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 1, maxLength: 60 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 700 }),
        fc.integer({ min: 150, max: 2_600 }),
        fc.integer({ min: 0, max: 300 }),
        fc.option(fc.constantFrom('Started session proc_z.', 'h'), { nil: undefined }),
        async (lines, trailing, size, budget, over, header) => {
          const body = lines.join('\n') + (trailing ? '\n' : '');
          const request = {
            budget,
            status: 'Process exited with code 1.',
            sessionId: 'proc_x',
            firstLine: 3,
            ...(header === undefined ? {} : { header }),
          };
          const whole = applyOutputBudget({ ...request, body: body === '' ? '(none)' : body });
          // Held whole up to a little over the room (one character over at the least: a body
          // of room characters and its trailing newline fits), else streamed past.
          const streamed = await budgetTranscript(
            chunked(body, size),
            { ...request, empty: '(none)' },
            bodyRoom(request) + 1 + over,
          );
          expect(streamed).toEqual(whole);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('counts a surrogate pair split between two chunks as one 4-byte character', async () => {
    // 98 pairs after an error word, cut to nothing but the notice; chunks of one code unit
    // split every pair (each half alone would count as a 3-byte replacement character).
    const body = `failed${'😀'.repeat(98)}`;
    const request = { budget: 150, status: 'S', sessionId: 'proc_p', firstLine: 0 };
    for (const size of [1, 2, 7]) {
      const streamed = await budgetTranscript(chunked(body, size), { ...request, empty: '' }, 0);
      expect(streamed.cut?.omittedBytes).toBe(Buffer.byteLength(body));
      expect(streamed).toEqual(applyOutputBudget({ ...request, body }));
    }
  });

  it('counts lone surrogates and pairs at the edges of their ranges as the string cut does', async () => {
    const units = ['\ud800\udc00', '\udbff\udfff', 'a\udc00', '\ud800\ue000', '\ud7ff\udc00', '\udfff'];
    const body = `\udc00failed${units.join('').repeat(30)}`;
    const request = { budget: 150, status: 'S', sessionId: 'proc_p', firstLine: 0 };
    for (const size of [1, 2, 3]) {
      const streamed = await budgetTranscript(chunked(body, size), { ...request, empty: '' }, 0);
      expect(streamed).toEqual(applyOutputBudget({ ...request, body }));
    }
  });

  it('gives the empty text for a transcript of no characters, however it is chunked', async () => {
    const request = { budget: 1_000, status: 'Process exited with code 0.', empty: '(no output)' };
    async function* none(): AsyncIterable<string> {
      yield '';
      yield '';
    }
    for (const chunks of [chunked('', 1), none()]) {
      expect(await budgetTranscript(chunks, request, 0)).toEqual(
        applyOutputBudget({ ...request, body: '(no output)' }),
      );
    }
  });
});
