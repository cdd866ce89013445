import { describe, expect, it } from 'vitest';
import { detach, lastCharacters, locateByte, wellFormed } from '../src/utf8.js';

// 'a' (1 byte) 'é' (2) '€' (3) '😀' (4, two UTF-16 units) 'b' (1): 11 bytes, 6 units.
const MIXED = 'aé€😀b';
const MIXED_BYTES = 11;

describe('locateByte', () => {
  it('maps every byte offset to the character boundary at or below it when rounding down', () => {
    const expected = [0, 1, 1, 3, 3, 3, 6, 6, 6, 6, 10, 11];
    for (let target = 0; target <= MIXED_BYTES; target++) {
      expect(locateByte(MIXED, MIXED_BYTES, target, 'down').byte).toBe(expected[target]);
    }
  });

  it('maps every byte offset to the character boundary at or above it when rounding up', () => {
    const expected = [0, 1, 3, 3, 6, 6, 6, 10, 10, 10, 10, 11];
    for (let target = 0; target <= MIXED_BYTES; target++) {
      expect(locateByte(MIXED, MIXED_BYTES, target, 'up').byte).toBe(expected[target]);
    }
  });

  it('returns the UTF-16 index whose prefix has exactly the reached byte length', () => {
    for (let target = 0; target <= MIXED_BYTES; target++) {
      for (const round of ['down', 'up'] as const) {
        const at = locateByte(MIXED, MIXED_BYTES, target, round);
        expect(Buffer.byteLength(MIXED.slice(0, at.index))).toBe(at.byte);
      }
    }
  });

  it('scans from a known position without rescanning the prefix', () => {
    const from = locateByte(MIXED, MIXED_BYTES, 3, 'down');
    expect(locateByte(MIXED, MIXED_BYTES, 7, 'down', from)).toEqual({ index: 3, byte: 6 });
    expect(locateByte(MIXED, MIXED_BYTES, 2, 'down', from)).toEqual(from);
  });

  it('treats an all-ASCII string as one byte per index', () => {
    expect(locateByte('hello', 5, 3, 'up')).toEqual({ index: 3, byte: 3 });
  });

  it('scans backwards near the end of a long string', () => {
    const text = `${'é'.repeat(100)}😀`;
    const bytes = Buffer.byteLength(text);
    expect(locateByte(text, bytes, bytes - 1, 'down')).toEqual({ index: 100, byte: 200 });
    expect(locateByte(text, bytes, bytes - 1, 'up')).toEqual({ index: 102, byte: 204 });
    expect(locateByte(text, bytes, 199, 'up')).toEqual({ index: 100, byte: 200 });
  });
});

describe('lastCharacters', () => {
  it('counts a surrogate pair as one character and never halves it', () => {
    expect(lastCharacters('ab😀😀', 2)).toBe('😀😀');
    expect(lastCharacters('ab😀😀', 3)).toBe('b😀😀');
  });

  it('returns the whole string when it is shorter than asked', () => {
    expect(lastCharacters('a😀', 5)).toBe('a😀');
  });

  it('counts a lone low surrogate at the start as one character', () => {
    expect(lastCharacters('\udc00x', 2)).toBe('\udc00x');
  });
});

describe('wellFormed', () => {
  it('replaces lone surrogates with U+FFFD so byte counts match the text', () => {
    expect(wellFormed('a\ud800b')).toBe('a\ufffdb');
    expect(Buffer.byteLength(wellFormed('a\ud800b'))).toBe(5);
  });

  it('returns well-formed text unchanged', () => {
    const text = 'plain 😀';
    expect(wellFormed(text)).toBe(text);
  });
});

describe('detach', () => {
  it('returns an equal string', () => {
    expect(detach('xé😀'.repeat(10).slice(4))).toBe('xé😀'.repeat(10).slice(4));
  });
});
