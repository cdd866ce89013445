import { describe, expect, it } from 'vitest';
import { lastCharacters, wellFormed } from '../../src/log/utf8.js';

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
