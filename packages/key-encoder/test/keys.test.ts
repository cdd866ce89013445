import { describe, expect, it } from 'vitest';
import { encodeKey, encodeKeySequence, findKey, KEY_TABLE, keyNames } from '../src/index.js';

const keys = (...tokens: string[]) => encodeKeySequence({ keys: tokens });

describe('modifiers in any combination and order', () => {
  it.each([
    ['S-', 2],
    ['M-', 3],
    ['M-S-', 4],
    ['C-', 5],
    ['C-S-', 6],
    ['C-M-', 7],
    ['C-M-S-', 8],
  ])('%sUp carries xterm modifier %i', (prefix, modifier) => {
    expect(keys(`${prefix}Up`)).toBe(`\x1b[1;${modifier}A`);
  });

  it('gives the same bytes whatever order the prefixes come in', () => {
    for (const group of [
      ['C-M-a', 'M-C-a'],
      ['C-M-S-Left', 'S-M-C-Left', 'M-S-C-Left', 'S-C-M-Left'],
      ['C-S-F5', 'S-C-F5'],
      ['M-S-Tab', 'S-M-Tab'],
    ]) {
      const [first, ...rest] = group.map((token) => keys(token));
      for (const other of rest) expect(other).toBe(first);
    }
    expect(keys('M-C-a')).toBe('\x1b\x01');
  });

  it('accepts lowercase prefixes and any case of a key name, as tmux does', () => {
    expect(keys('c-m-up')).toBe('\x1b[1;7A');
    expect(keys('ENTER', 'pageup', 'f12', 'bspace')).toBe('\r\x1b[5~\x1b[24~\x7f');
  });

  it('treats a repeated modifier as said once', () => {
    expect(keys('C-C-a')).toBe('\x01');
  });

  it.each([
    ['C-Up', '\x1b[1;5A'],
    ['M-PageUp', '\x1b[5;3~'],
    ['S-F1', '\x1b[1;2P'],
    ['C-F4', '\x1b[1;5S'],
    ['M-F5', '\x1b[15;3~'],
    ['C-S-F12', '\x1b[24;6~'],
    ['S-Delete', '\x1b[3;2~'],
    ['C-Insert', '\x1b[2;5~'],
    ['C-PageDown', '\x1b[6;5~'],
    ['S-Home', '\x1b[1;2H'],
    ['C-End', '\x1b[1;5F'],
    ['M-Down', '\x1b[1;3B'],
    ['S-Right', '\x1b[1;2C'],
    ['C-M-Left', '\x1b[1;7D'],
  ])('%s → %j (xterm modifier form)', (token, bytes) => {
    expect(keys(token)).toBe(bytes);
  });
});

describe('characters', () => {
  it('sends a single character as itself, including non-ASCII', () => {
    expect(keys('a', 'Z', '-', '^', '~', 'é', '😀')).toBe('aZ-^~é😀');
  });

  it('maps Ctrl to control codes for letters in either case and the @–_ row', () => {
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    for (const [i, letter] of [...letters].entries()) {
      expect(keys(`C-${letter}`)).toBe(String.fromCharCode(i + 1));
      expect(keys(`C-${letter.toUpperCase()}`)).toBe(String.fromCharCode(i + 1));
      expect(keys(`^${letter}`)).toBe(String.fromCharCode(i + 1));
    }
    expect(keys('C-@', 'C-[', 'C-\\', 'C-]', 'C-^', 'C-_')).toBe('\x00\x1b\x1c\x1d\x1e\x1f');
  });

  it("maps xterm's legacy Ctrl forms of ? / space and the digits 2–8", () => {
    expect(keys('C-?', '^?', 'C-/', 'C- ')).toBe('\x7f\x7f\x1f\x00');
    expect(keys('C-2', 'C-3', 'C-4', 'C-5', 'C-6', 'C-7', 'C-8')).toBe('\x00\x1b\x1c\x1d\x1e\x1f\x7f');
  });

  it('reads the caret form with Alt and on its own', () => {
    expect(keys('M-^C', '^[', '^^', '^')).toBe('\x1b\x03\x1b\x1e^');
  });

  it('keeps a dash after a prefix as the key', () => {
    expect(keys('M--', '-')).toBe('\x1b--');
  });

  it('uppercases a letter for Shift and prefixes ESC for Alt', () => {
    expect(keys('S-a', 'S-A', 'M-S-b', 'M-é', 'S-é')).toBe('AA\x1bB\x1béÉ');
  });

  it('sends C-S-letter as C-letter: a legacy terminal cannot tell them apart', () => {
    expect(keys('C-S-a')).toBe(keys('C-a'));
  });
});

describe('legacy keys and their modifiers', () => {
  it.each([
    ['M-Enter', '\x1b\r'],
    ['M-Escape', '\x1b\x1b'],
    ['M-Tab', '\x1b\t'],
    ['S-Tab', '\x1b[Z'],
    ['M-S-Tab', '\x1b\x1b[Z'],
    ['C-Space', '\x00'],
    ['M-Space', '\x1b '],
    ['C-M-Space', '\x1b\x00'],
    ['C-Backspace', '\x08'],
    ['M-Backspace', '\x1b\x7f'],
    ['M-BTab', '\x1b\x1b[Z'],
  ])('%s → %j', (token, bytes) => {
    expect(keys(token)).toBe(bytes);
  });
});

describe('application cursor keys', () => {
  const app = (...tokens: string[]) => encodeKeySequence({ keys: tokens, applicationCursorKeys: true });

  it('sends ESC O x for unmodified arrows, Home and End', () => {
    expect(app('Up', 'Down', 'Right', 'Left', 'Home', 'End')).toBe('\x1bOA\x1bOB\x1bOC\x1bOD\x1bOH\x1bOF');
  });

  it('keeps the CSI form for modified cursor keys and leaves other keys alone', () => {
    expect(app('C-Up', 'S-Home')).toBe('\x1b[1;5A\x1b[1;2H');
    expect(app('PageUp', 'F1', 'F5', 'Enter', 'a')).toBe(keys('PageUp', 'F1', 'F5', 'Enter', 'a'));
  });

  it('is off by default and when false', () => {
    expect(encodeKeySequence({ keys: ['Up'], applicationCursorKeys: false })).toBe('\x1b[A');
    expect(encodeKey('Home')).toBe('\x1b[1~');
    expect(encodeKey('Home', true)).toBe('\x1bOH');
  });
});

describe('requests', () => {
  it('concatenates literal, then hex, then keys', () => {
    expect(encodeKeySequence({ keys: ['Enter'], hex: ['0x20'], literal: 'ls' })).toBe('ls \r');
  });

  it('passes literal text through untouched, escapes and all', () => {
    const literal = 'echo "$x" \x1b[31m\r\n\t✓ C-c ^C';
    expect(encodeKeySequence({ literal })).toBe(literal);
  });

  it('encodes an empty request as the empty string', () => {
    expect(encodeKeySequence({})).toBe('');
    expect(encodeKeySequence({ keys: [], hex: [], literal: '' })).toBe('');
  });
});

describe('the key table', () => {
  it('lists every name and alias once, all findable case-insensitively', () => {
    const names = keyNames();
    expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(names.length);
    for (const name of names) expect(findKey(name.toUpperCase())).toBe(findKey(name));
    expect(findKey('nope')).toBeUndefined();
  });

  it('encodes every row to its own unmodified sequence', () => {
    for (const key of KEY_TABLE) {
      for (const name of [key.name, ...key.aliases]) expect(encodeKey(name)).toBe(key.sequence);
    }
  });

  it('holds F1–F12, the tmux aliases and BTab', () => {
    expect(KEY_TABLE.filter((key) => /^F\d+$/.test(key.name)).map((key) => key.name)).toEqual(
      Array.from({ length: 12 }, (_, i) => `F${i + 1}`),
    );
    expect(keys('PgUp', 'PPage', 'PgDn', 'NPage', 'IC', 'Ins', 'DC', 'Del')).toBe(
      '\x1b[5~\x1b[5~\x1b[6~\x1b[6~\x1b[2~\x1b[2~\x1b[3~\x1b[3~',
    );
  });

  it('cannot be changed by a caller', () => {
    expect(Object.isFrozen(KEY_TABLE)).toBe(true);
    for (const key of KEY_TABLE) {
      expect(Object.isFrozen(key)).toBe(true);
      expect(Object.isFrozen(key.aliases)).toBe(true);
    }
  });
});
