import { propertyRuns } from '@procmux/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  encodeKey,
  encodeKeySequence,
  encodePaste,
  KEY_TABLE,
  PASTE_END,
  PASTE_START,
} from '../src/index.js';

const prefixes = fc.shuffledSubarray(['C-', 'M-', 'S-']).map((list) => list.join(''));
const modifiable = KEY_TABLE.filter((key) => key.modified !== undefined).flatMap((key) => [
  key.name,
  ...key.aliases,
]);
const letters = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ');
const anyCase = (name: string) =>
  fc
    .array(fc.boolean(), { minLength: name.length, maxLength: name.length })
    .map((upper) => [...name].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join(''));

/** Tokens the encoder documents as valid. */
const validToken = fc.oneof(
  fc.tuple(prefixes, fc.constantFrom(...modifiable).chain(anyCase)).map(([p, k]) => p + k),
  fc.tuple(prefixes, letters).map(([p, k]) => p + k),
  fc
    .tuple(
      fc.constantFrom('', 'M-'),
      fc.constantFrom('Enter', 'Return', 'Tab', 'Escape', 'Esc', 'Space', 'Backspace', 'BSpace', 'BTab'),
    )
    .map(([p, k]) => p + k),
  fc
    .tuple(fc.constantFrom('', 'M-'), fc.constantFrom('C-Space', 'C-Backspace', 'S-Tab'))
    .map(([p, k]) => p + k),
  fc.tuple(fc.constantFrom('', 'M-'), fc.constantFrom(...'@[\\]^_?/ 2345678')).map(([p, k]) => `${p}C-${k}`),
  fc.tuple(fc.constantFrom('', 'M-'), letters).map(([p, k]) => `${p}^${k}`),
  fc
    .tuple(fc.constantFrom('', 'M-'), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }))
    .filter(([, k]) => [...k].length === 1)
    .map(([p, k]) => p + k),
);

describe('key encoding properties', () => {
  it('encodes every valid token to non-empty output', () => {
    fc.assert(
      fc.property(validToken, fc.boolean(), (token, applicationCursorKeys) => {
        expect(encodeKeySequence({ keys: [token], applicationCursorKeys }).length).toBeGreaterThan(0);
      }),
      { numRuns: propertyRuns(2_000) },
    );
  });

  it('encodes a sequence as the concatenation of its tokens', () => {
    fc.assert(
      fc.property(fc.array(validToken, { maxLength: 8 }), (tokens) => {
        expect(encodeKeySequence({ keys: tokens })).toBe(tokens.map((token) => encodeKey(token)).join(''));
      }),
    );
  });

  it('gives the same bytes for the same modifiers in any order', () => {
    fc.assert(
      fc.property(
        fc.shuffledSubarray(['C-', 'M-', 'S-'], { minLength: 2 }),
        fc.constantFrom(...modifiable, ...'abcxyz'),
        (mods, key) => {
          const reversed = [...mods].reverse();
          expect(encodeKey(mods.join('') + key)).toBe(encodeKey(reversed.join('') + key));
        },
      ),
    );
  });
});

const flatPasteText = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        PASTE_START,
        PASTE_END,
        '\x1b',
        '\x1b[',
        '\x1b[20',
        '[',
        '200~',
        '201~',
        '20',
        '0',
        '1~',
        '~',
        '\n',
      ),
      fc.string({ unit: 'binary', maxLength: 6 }),
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(''));

/** A marker split open with more text (itself possibly nested) inside: removing the inner one assembles the outer. */
const { pasteText } = fc.letrec((tie) => ({
  pasteText: fc.oneof(
    { depthSize: 'small' },
    flatPasteText,
    fc
      .tuple(fc.constantFrom(PASTE_START, PASTE_END), fc.nat(6), tie('pasteText'), flatPasteText)
      .map(([marker, at, inner, after]) => marker.slice(0, at) + inner + marker.slice(at) + after),
  ),
})) as { pasteText: fc.Arbitrary<string> };

const count = (text: string, marker: string) => text.split(marker).length - 1;

describe('paste properties', () => {
  it('a bracketed paste holds exactly one ESC[200~, at the start, and one ESC[201~, at the end', () => {
    fc.assert(
      fc.property(pasteText, (text) => {
        const out = encodePaste(text, { bracketed: true });
        expect(out.startsWith(PASTE_START)).toBe(true);
        expect(out.endsWith(PASTE_END)).toBe(true);
        expect(count(out, PASTE_START)).toBe(1);
        expect(count(out, PASTE_END)).toBe(1);
      }),
      { numRuns: propertyRuns(2_000) },
    );
  });

  it('changes nothing but the markers: text without ESC is wrapped untouched', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }).filter((text) => !text.includes('\x1b')),
        (text) => {
          expect(encodePaste(text)).toBe(PASTE_START + text + PASTE_END);
        },
      ),
    );
  });

  it('an unbracketed paste is the text itself', () => {
    fc.assert(
      fc.property(pasteText, (text) => {
        expect(encodePaste(text, { bracketed: false })).toBe(text);
      }),
    );
  });
});
