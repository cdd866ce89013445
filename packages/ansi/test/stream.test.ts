import { propertyRuns } from '@procmux/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AnsiStripOptions, createAnsiStripper, stripAnsi } from '../src/index.js';

// Dense in the characters that start, continue and end sequences, so random strings hit
// split sequences, interrupted sequences, CRs next to LFs and split surrogate pairs often.
const ALPHABET = [
  '\x1b',
  '\x1b',
  '[',
  '[',
  ']',
  'P',
  '_',
  'O',
  '?',
  '0',
  '1',
  '2',
  '6',
  '9',
  ';',
  ':',
  '\x07',
  '\\',
  '\r',
  '\r',
  '\n',
  '\n',
  '\b',
  '\t',
  '\x18',
  '\x7f',
  '\x9b',
  '\x9c',
  '\x9d',
  ' ',
  'a',
  'b',
  'm',
  'K',
  'G',
  'C',
  'D',
  'é',
  '日',
  '😀',
  // halves of a pair on their own, and a BMP character above the surrogates
  '\ud83d',
  '\ude00',
  '\uff01',
];

const input = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 120 }).map((parts) => parts.join(''));

/** Cuts text at the given offsets (any UTF-16 index, even inside a surrogate pair). */
function split(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let start = 0;
  for (const point of points) {
    chunks.push(text.slice(start, point));
    start = point;
  }
  chunks.push(text.slice(start));
  return chunks;
}

function streamed(chunks: string[], options?: AnsiStripOptions): string {
  const stripper = createAnsiStripper(options);
  let out = '';
  for (const chunk of chunks) out += stripper.push(chunk);
  return out + stripper.flush();
}

describe('createAnsiStripper', () => {
  it('gives exactly stripAnsi of the whole input, however the input is split', () => {
    fc.assert(
      fc.property(input, fc.array(fc.nat(), { maxLength: 12 }), (text, cuts) => {
        expect(streamed(split(text, cuts))).toBe(stripAnsi(text));
      }),
      { numRuns: propertyRuns(2000) },
    );
  });

  it('agrees with stripAnsi at small line widths too, where rows wrap', () => {
    fc.assert(
      fc.property(
        input,
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.integer({ min: 1, max: 8 }),
        (text, cuts, width) => {
          const options = { maxLineLength: width };
          expect(streamed(split(text, cuts), options)).toBe(stripAnsi(text, options));
        },
      ),
      { numRuns: propertyRuns(1000) },
    );
  });

  it('agrees with stripAnsi when fed one UTF-16 unit at a time', () => {
    fc.assert(
      fc.property(input, (text) => {
        expect(streamed(text.split(''))).toBe(stripAnsi(text));
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it('never lets ESC, C1 or a control character other than LF and tab through', () => {
    fc.assert(
      fc.property(input, (text) => {
        expect(stripAnsi(text)).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
      }),
      { numRuns: propertyRuns(1000) },
    );
  });

  it('returns text without escapes or controls unchanged', () => {
    const plain = fc
      .string({ unit: 'grapheme', maxLength: 80 })
      .map((s) => s.replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, ''));
    fc.assert(
      fc.property(plain, fc.array(fc.nat(), { maxLength: 6 }), (text, cuts) => {
        expect(stripAnsi(text)).toBe(text);
        expect(streamed(split(text, cuts))).toBe(text);
      }),
    );
  });

  it('at ground, a chunk free of ESC and C1 adds exactly its own line feeds (what atGround promises)', () => {
    const lineFeeds = (text: string) => text.split('\n').length - 1;
    fc.assert(
      fc.property(
        input,
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.integer({ min: 1, max: 8 }),
        (text, cuts, width) => {
          const stripper = createAnsiStripper({ maxLineLength: width });
          for (const chunk of split(text, cuts)) {
            const plain = !/[\x1b\x80-\x9f]/.test(chunk);
            const atGround = stripper.atGround;
            const out = stripper.push(chunk);
            if (atGround && plain) expect(lineFeeds(out)).toBe(lineFeeds(chunk));
          }
        },
      ),
      { numRuns: propertyRuns(2000) },
    );
  });

  it('treats a lone high surrogate before a pair as a character of its own when rows wrap', () => {
    // Property seed -2014583846: the wrap paired the lone half with the next high half.
    const text = '\ud83d\ud83d\ude00\r2';
    const options = { maxLineLength: 1 };
    expect(stripAnsi(text, options)).toBe('\ud83d2');
    for (let cut = 0; cut <= text.length; cut++) {
      expect(streamed([text.slice(0, cut), text.slice(cut)], options), `cut at ${cut}`).toBe('\ud83d2');
    }
  });

  it('is at ground only outside sequences and split characters', () => {
    const stripper = createAnsiStripper();
    expect(stripper.atGround).toBe(true);
    stripper.push('a\x1b');
    expect(stripper.atGround).toBe(false);
    stripper.push('[31');
    expect(stripper.atGround).toBe(false);
    stripper.push('mb\x1b]0;title\n');
    expect(stripper.atGround).toBe(false);
    stripper.push('\x07c\ud83d');
    expect(stripper.atGround).toBe(false);
    stripper.push('\ude00');
    expect(stripper.atGround).toBe(true);
  });

  it('handles every two-chunk split of sequences that span a boundary', () => {
    const samples = [
      'a\x1b[38;2;1;2;3mb\x1b]8;;https://x\x1b\\c\x1b]0;t\x07d\r\n',
      'ab\x1bPq#0;2;0\x1b\\c\x1bOAd\x1b(Be\x9b31mf\x9d0;t\x9cg',
      '10%\r50%\r100%\nabcdef\rXY\n',
      'hello\x1b[3D\x1b[1KX\x1b[2K\x1b[1Gdone\b\b!\n😀😀\rX',
    ];
    for (const text of samples) {
      const whole = stripAnsi(text);
      for (let cut = 0; cut <= text.length; cut++) {
        expect(
          streamed([text.slice(0, cut), text.slice(cut)]),
          `cut at ${cut} of ${JSON.stringify(text)}`,
        ).toBe(whole);
      }
    }
  });

  it('holds an unfinished line back until a line feed decides it', () => {
    const stripper = createAnsiStripper();
    expect(stripper.push('Downloading 10%')).toBe('');
    expect(stripper.pending).toBe('Downloading 10%');
    expect(stripper.push('\rDownloading 55%')).toBe('');
    expect(stripper.pending).toBe('Downloading 55%');
    expect(stripper.push('\rDownloading 100%\nunpacking')).toBe('Downloading 100%\n');
    expect(stripper.pending).toBe('unpacking');
    expect(stripper.flush()).toBe('unpacking');
    expect(stripper.pending).toBe('');
  });

  it('passes complete lines straight through', () => {
    const stripper = createAnsiStripper();
    expect(stripper.push('\x1b[1mone\x1b[0m\ntwo\nthr')).toBe('one\ntwo\n');
    expect(stripper.push('ee\n')).toBe('three\n');
    expect(stripper.flush()).toBe('');
  });

  it('starts a fresh stream after flush, forgetting an unfinished sequence', () => {
    const stripper = createAnsiStripper();
    expect(stripper.push('prompt> \x1b]0;unterminated title')).toBe('');
    expect(stripper.flush()).toBe('prompt> ');
    expect(stripper.push('next\n')).toBe('next\n');
  });

  it('holds the high half of a split surrogate pair until its low half arrives', () => {
    const stripper = createAnsiStripper({ maxLineLength: 2 });
    expect(stripper.push('a\ud83d')).toBe('');
    expect(stripper.push('\ude00b')).toBe('a😀');
    expect(stripper.flush()).toBe('b');
    expect(stripAnsi('lone \ud83d')).toBe('lone \ud83d');
    expect(streamed(['lone \ud83d'])).toBe('lone \ud83d');
  });
});
