// lastCharacters at the edges of the surrogate ranges, which a mutation run showed unasserted.
import { describe, expect, it } from 'vitest';
import { lastCharacters } from '../../src/log/utf8.js';

describe('lastCharacters at the surrogate boundaries', () => {
  it('takes a pair at either end of the ranges as one character', () => {
    for (const pair of ['\ud800\udc00', '\udbff\udfff', '\ud800\udfff', '\udbff\udc00']) {
      expect(lastCharacters(`ab${pair}`, 1)).toBe(pair);
      expect(lastCharacters(`ab${pair}`, 2)).toBe(`b${pair}`);
    }
  });

  it('takes a lone low surrogate, or one after a non-high unit, as one character', () => {
    expect(lastCharacters('ab\udc00', 1)).toBe('\udc00');
    // 0xd7ff and 0xdc00 are just outside the high range, 0xe000 just past the low one.
    expect(lastCharacters('a\ud7ff\udc00', 1)).toBe('\udc00');
    expect(lastCharacters('a\udc00\udc00', 1)).toBe('\udc00');
    expect(lastCharacters('a\ud800\ue000', 1)).toBe('\ue000');
    expect(lastCharacters('a\ud800\udbff', 1)).toBe('\udbff');
    expect(lastCharacters('\udc00', 1)).toBe('\udc00');
  });

  it('counts characters, never more than asked, and 0 means none', () => {
    expect(lastCharacters('abc', 0)).toBe('');
    expect(lastCharacters('abc', 2)).toBe('bc');
    expect(lastCharacters('\ud83d\ude00\ud83d\ude01x', 2)).toBe('\ud83d\ude01x');
  });

  it('returns the whole text when asked for more characters than it has', () => {
    // One more than there are: a count that ran past the start must not wrap to the end.
    expect(lastCharacters('abc', 4)).toBe('abc');
    expect(lastCharacters('ab\ud83d\ude00', 4)).toBe('ab\ud83d\ude00');
  });

  it('takes a pair that starts the text as one character', () => {
    expect(lastCharacters('\ud83d\ude00', 1)).toBe('\ud83d\ude00');
    expect(lastCharacters('\ud800\udc00x', 2)).toBe('\ud800\udc00x');
  });
});
