import { propertyRuns, throwsWith } from '@procmux/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createDsrStripper,
  cursorPositionReport,
  type DsrStripResult,
  stripDsrRequests,
} from '../src/index.js';

function streamed(chunks: string[]): DsrStripResult {
  const stripper = createDsrStripper();
  let text = '';
  let count = 0;
  for (const chunk of [...chunks.map((c) => stripper.push(c)), stripper.flush()]) {
    text += chunk.text;
    count += chunk.count;
  }
  return { text, count };
}

describe('stripDsrRequests', () => {
  it('removes and counts cursor position queries in both forms', () => {
    expect(stripDsrRequests('>>> \x1b[6n')).toEqual({ text: '>>> ', count: 1 });
    expect(stripDsrRequests('\x1b[?6nA\x1b[6nB\x1b[6n')).toEqual({ text: 'AB', count: 3 });
  });

  it('leaves every other sequence byte for byte', () => {
    const other = '\x1b[31mred\x1b[0m \x1b[5n \x1b[16n \x1b[6;1n \x1b[?25h \x1b[6m \x1b]0;6n\x07 6n';
    expect(stripDsrRequests(other)).toEqual({ text: other, count: 0 });
  });

  it('does not join what is left into a new query', () => {
    expect(stripDsrRequests('\x1b[\x1b[6n6n')).toEqual({ text: '\x1b[6n', count: 1 });
  });

  it('returns a chunk without queries as it is', () => {
    const chunk = 'plain output\n';
    expect(stripDsrRequests(chunk).text).toBe(chunk);
  });
});

describe('createDsrStripper', () => {
  it('finds a query split at any point', () => {
    const samples = ['ab\x1b[6ncd', 'x\x1b[?6ny\x1b[6n', '\x1b[6n', '\x1b[?6n\x1b[?6n', 'a\x1b[?25hb\x1b[6'];
    for (const text of samples) {
      const whole = stripDsrRequests(text);
      for (let cut = 0; cut <= text.length; cut++) {
        expect(
          streamed([text.slice(0, cut), text.slice(cut)]),
          `cut at ${cut} of ${JSON.stringify(text)}`,
        ).toEqual(whole);
      }
      expect(streamed(text.split(''))).toEqual(whole);
    }
  });

  it('holds a possible query prefix until the next chunk decides it', () => {
    const splits = [
      ['\x1b', '[6n!'],
      ['\x1b[', '6n!'],
      ['\x1b[?', '6n!'],
      ['\x1b[6', 'n!'],
      ['\x1b[?6', 'n!'],
    ];
    for (const [tail, rest] of splits) {
      const stripper = createDsrStripper();
      expect(stripper.push(`out${tail}`)).toEqual({ text: 'out', count: 0 });
      expect(stripper.push(rest as string)).toEqual({ text: '!', count: 1 });
    }
  });

  it('releases held bytes when the next chunk shows they are something else', () => {
    const stripper = createDsrStripper();
    expect(stripper.push('a\x1b[?')).toEqual({ text: 'a', count: 0 });
    expect(stripper.push('25h')).toEqual({ text: '\x1b[?25h', count: 0 });
    expect(stripper.push('\x1b[6')).toEqual({ text: '', count: 0 });
    expect(stripper.push('m')).toEqual({ text: '\x1b[6m', count: 0 });
  });

  it('gives held bytes back on flush and starts over', () => {
    const stripper = createDsrStripper();
    expect(stripper.push('tail\x1b[6')).toEqual({ text: 'tail', count: 0 });
    expect(stripper.flush()).toEqual({ text: '\x1b[6', count: 0 });
    expect(stripper.flush()).toEqual({ text: '', count: 0 });
    expect(stripper.push('n')).toEqual({ text: 'n', count: 0 });
  });

  it('matches stripDsrRequests of the whole stream for any split', () => {
    const text = fc
      .array(fc.constantFrom('\x1b', '\x1b[6n', '[', '?', '6', 'n', 'a', '1', ';', 'é', '😀'), {
        maxLength: 60,
      })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 10 }), (input, cuts) => {
        const points = [...new Set(cuts.map((cut) => cut % (input.length + 1)))].sort((a, b) => a - b);
        const chunks = [...points, input.length].map((point, k, all) =>
          input.slice(k === 0 ? 0 : all[k - 1], point),
        );
        expect(streamed(chunks)).toEqual(stripDsrRequests(input));
      }),
      { numRuns: propertyRuns(2000) },
    );
  });
});

describe('cursorPositionReport', () => {
  it('formats a 1-based CPR answer', () => {
    expect(cursorPositionReport(1, 1)).toBe('\x1b[1;1R');
    expect(cursorPositionReport(24, 80)).toBe('\x1b[24;80R');
  });

  it.each([
    ['row', 0, 1],
    ['row', -3, 1],
    ['col', 1, 1.5],
    ['col', 1, Number.NaN],
    ['row', Number.POSITIVE_INFINITY, 1],
    ['row', 2 ** 53, 1],
    ['col', 1, '2' as unknown as number],
    ['row', undefined as unknown as number, 1],
  ])('rejects %s = %s with ERR_INVALID_OPTION', (name, row, col) => {
    const error = throwsWith(() => cursorPositionReport(row, col), 'ERR_INVALID_OPTION');
    expect(error.message).toMatch(
      new RegExp(`^${name} must be an integer from 1 to 9007199254740991 \\(got .+\\)$`),
    );
    expect(error.details).toEqual({ option: name, min: 1, max: Number.MAX_SAFE_INTEGER });
  });
});
