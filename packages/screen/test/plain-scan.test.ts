import { propertyRuns } from '@procmux/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainLineFeeds } from '../src/index.js';
import { plainLineFeedsJs } from '../src/plain-scan/scan.js';
import { createSimdScan } from '../src/plain-scan/simd.js';

// Characters around every edge of the test: the controls kept (tab, LF, CR) and their
// neighbours, the printable range's ends, DEL, C1, Latin-1, a character of 3 UTF-8 bytes, a
// surrogate pair and lone surrogates.
const EDGES = [
  ...Array.from({ length: 0x100 }, (_, code) => String.fromCharCode(code)),
  '\u0100',
  '\u2028',
  '你',
  '😀',
  '\ud800',
  '\udfff',
];

describe('plainLineFeeds', () => {
  it('runs as WebAssembly SIMD on this Node (a module that did not validate would fall back silently)', () => {
    expect(createSimdScan()).toBeDefined();
  });

  it('gives the regex scan’s answer for each character at each place of a 16-byte step', () => {
    const simd = createSimdScan()!;
    const wrong: string[] = [];
    for (const length of [1, 2, 15, 16, 17, 31, 32, 33, 48]) {
      for (const edge of EDGES) {
        for (let at = 0; at < length; at++) {
          const text = `${'a\n'.repeat(length).slice(0, at)}${edge}${'b'.repeat(length - at - 1)}`;
          const expected = plainLineFeedsJs(text);
          if (simd.scan(text) !== expected || plainLineFeeds(text) !== expected) {
            wrong.push(`${JSON.stringify(text)}: ${simd.scan(text)}, expected ${expected}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('counts the line feeds of plain text and refuses anything else, whatever its length', () => {
    const unit = fc.oneof(
      { weight: 20, arbitrary: fc.constantFrom('a', 'Z', ' ', '~', '\t', '\r', '\n', '\r\n') },
      { weight: 1, arbitrary: fc.constantFrom(...EDGES) },
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 600 }), (units) => {
        const text = units.join('');
        const expected = plainLineFeedsJs(text);
        expect(plainLineFeeds(text)).toBe(expected);
        expect(createSimdScan()!.scan(text)).toBe(expected);
      }),
      { numRuns: propertyRuns(500) },
    );
  });

  it('counts a 4 KiB terminal read of a flood: 62 lines, each ending CR LF', () => {
    const read = 'procmux bench 0123456789 abcdefghijklmnopqrstuvwxyz ABCDEFGHIJK\r\n'.repeat(62);
    expect(plainLineFeeds(read)).toBe(62);
    expect(plainLineFeeds(`${read}\x1b[0m`)).toBe(-1);
  });

  it('answers texts longer than the SIMD memory, and ones whose UTF-8 does not fit it, the same', () => {
    const { capacity } = createSimdScan()!;
    const long = 'line\n'.repeat(Math.ceil((capacity + 10) / 5));
    expect(long.length).toBeGreaterThan(capacity);
    expect(plainLineFeeds(long)).toBe(long.length / 5);
    expect(plainLineFeeds(`${long}\x07`)).toBe(-1);
    // Within the capacity in characters, past it in bytes: not plain either way.
    expect(plainLineFeeds(`${'a'.repeat(capacity - 1)}é`)).toBe(-1);
    expect(plainLineFeeds('你'.repeat(capacity))).toBe(-1);
    expect(plainLineFeeds('a'.repeat(capacity))).toBe(0);
  });

  it('answers each text for itself when asked about texts one after another', () => {
    expect(plainLineFeeds('a\nb')).toBe(1);
    expect(plainLineFeeds('a\nb')).toBe(1);
    expect(plainLineFeeds('a\x1bb')).toBe(-1);
    expect(plainLineFeeds('a\n\n')).toBe(2);
    expect(plainLineFeeds('')).toBe(0);
  });
});
