import { StringDecoder } from 'node:string_decoder';
import { propertyRuns } from '@procmux/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Utf8ChunkDecoder } from '../src/index.js';

/** Every chunk's string and the end, as a StringDecoder gives them. */
function reference(chunks: Uint8Array[]): string[] {
  const decoder = new StringDecoder('utf8');
  return [...chunks.map((c) => decoder.write(Buffer.from(c))), decoder.end()];
}

function ours(chunks: Uint8Array[]): string[] {
  const decoder = new Utf8ChunkDecoder();
  return [...chunks.map((c) => decoder.write(c)), decoder.end()];
}

const bytes = (...values: number[]) => Uint8Array.from(values);

describe('Utf8ChunkDecoder', () => {
  it('gives what a StringDecoder gives for each chunk: ASCII, split characters, invalid bytes', () => {
    const cases: Uint8Array[][] = [
      [Buffer.from('hello\n'), Buffer.from('world')],
      // é split: the ASCII chunk after the lead byte must not skip the pending character.
      [bytes(0x61, 0xc3), bytes(0xa9, 0x62), Buffer.from('ascii')],
      // A lead byte followed by ASCII: U+FFFD, then the ASCII as is.
      [bytes(0xe2, 0x82), Buffer.from('abc'), Buffer.from('def')],
      // A character cut off after a continuation byte 0x80 (the lowest): still pending.
      [bytes(0xe2, 0x80), Buffer.from('abc')],
      // A 4-byte character split three ways, then ASCII.
      [bytes(0xf0), bytes(0x9f, 0x98), bytes(0x80), Buffer.from('ok')],
      // Lone continuation bytes, a cut-off character at the end.
      [bytes(0x80, 0x41), bytes(0xe2, 0x82)],
      [new Uint8Array(0), Buffer.from('x'), new Uint8Array(0)],
    ];
    for (const chunks of cases) expect(ours(chunks)).toEqual(reference(chunks));
  });

  it('decodes a chunk inside a larger buffer from its own offset', () => {
    const whole = Buffer.from('__héllo__');
    const decoder = new Utf8ChunkDecoder();
    expect(decoder.write(whole.subarray(2, 4))).toBe('h');
    expect(decoder.write(whole.subarray(4, 8))).toBe('éllo');
    expect(decoder.write(whole.subarray(0, 2))).toBe('__');
  });

  it('matches a StringDecoder on random bytes in random chunks, mostly ASCII or not', () => {
    const byte = fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 0xff }) },
    );
    const text = fc.oneof(
      fc.array(byte, { maxLength: 300 }).map((b) => Uint8Array.from(b)),
      fc.string({ unit: 'binary', maxLength: 120 }).map((s) => Uint8Array.from(Buffer.from(s))),
    );
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 12 }), (all, cuts) => {
        const points = [...new Set(cuts.map((c) => c % (all.length + 1)))].sort((a, b) => a - b);
        const chunks: Uint8Array[] = [];
        let from = 0;
        for (const at of [...points, all.length]) {
          chunks.push(all.subarray(from, at));
          from = at;
        }
        expect(ours(chunks)).toEqual(reference(chunks));
      }),
      { numRuns: propertyRuns(2_000) },
    );
  });

  it('says lastWasAscii exactly when the text is the chunk byte for byte', () => {
    const decoder = new Utf8ChunkDecoder();
    const seen = (chunk: Uint8Array) => [decoder.write(chunk), decoder.lastWasAscii] as const;
    expect(seen(Buffer.from('plain\n'))).toEqual(['plain\n', true]);
    expect(seen(bytes(0x61, 0xc3))).toEqual(['a', false]);
    // ASCII bytes, but the text starts with the character held from before: not the bytes.
    expect(seen(bytes(0xa9, 0x62))).toEqual(['éb', false]);
    expect(seen(Buffer.from('ok'))).toEqual(['ok', true]);
    expect(seen(new Uint8Array(0))).toEqual(['', false]);
    decoder.write(bytes(0xe2));
    expect([decoder.end(), decoder.lastWasAscii]).toEqual(['\ufffd', false]);
  });

  it('says lastWasAscii only where the bytes decode alone to the text (random chunks)', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 8 }), { maxLength: 10 }), (chunks) => {
        const decoder = new Utf8ChunkDecoder();
        for (const chunk of chunks) {
          const text = decoder.write(chunk);
          if (decoder.lastWasAscii) expect(Buffer.from(text, 'utf8').equals(Buffer.from(chunk))).toBe(true);
        }
      }),
      { numRuns: propertyRuns(2_000) },
    );
  });
});
