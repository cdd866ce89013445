// Every row of the kerkov reference's "Key Encoder" tables, copied as written there.
import { describe, expect, it } from 'vitest';
import { encodeKeySequence, encodePaste } from '../src/index.js';

const keys = (...tokens: string[]) => encodeKeySequence({ keys: tokens });

describe('reference: encoding requests', () => {
  it('named keys: C-c is ETX', () => {
    expect(encodeKeySequence({ keys: ['C-c'] })).toBe('\x03');
  });

  it('multiple keys: Up Up Enter', () => {
    expect(encodeKeySequence({ keys: ['Up', 'Up', 'Enter'] })).toBe('\x1b[A\x1b[A\r');
  });

  it('hex bytes: 0x04 is EOT', () => {
    expect(encodeKeySequence({ hex: ['0x04'] })).toBe('\x04');
  });

  it('literal text', () => {
    expect(encodeKeySequence({ literal: 'hello' })).toBe('hello');
  });
});

describe('reference: modifier syntax', () => {
  it.each([
    ['C-c', '\x03'],
    ['C-d', '\x04'],
    ['C-z', '\x1a'],
    ['C-a', '\x01'],
    ['M-x', '\x1bx'],
    ['S-Tab', '\x1b[Z'],
    ['C-M-a', '\x1b\x01'],
    ['^C', '\x03'],
  ])('%s → %j', (token, bytes) => {
    expect(keys(token)).toBe(bytes);
  });
});

describe('reference: how Ctrl keys work (uppercase code AND 0x1f)', () => {
  it.each([
    ['C-C', 3],
    ['C-D', 4],
    ['C-[', 27],
  ])('%s → %i', (token, code) => {
    expect(keys(token)).toBe(String.fromCharCode(code));
  });
});

describe('reference: xterm modifier encoding', () => {
  it.each([
    ['Up', '\x1b[A'],
    ['S-Up', '\x1b[1;2A'],
    ['M-Up', '\x1b[1;3A'],
    ['C-Up', '\x1b[1;5A'],
  ])('%s → %j', (token, bytes) => {
    expect(keys(token)).toBe(bytes);
  });
});

describe('reference: named key map', () => {
  it.each([
    ['Enter', '\r'],
    ['Return', '\r'],
    ['Tab', '\t'],
    ['Escape', '\x1b'],
    ['Esc', '\x1b'],
    ['Space', ' '],
    ['Backspace', '\x7f'],
    ['BSpace', '\x7f'],
    ['Up', '\x1b[A'],
    ['Down', '\x1b[B'],
    ['Right', '\x1b[C'],
    ['Left', '\x1b[D'],
    ['Home', '\x1b[1~'],
    ['End', '\x1b[4~'],
    ['PageUp', '\x1b[5~'],
    ['PageDown', '\x1b[6~'],
    ['Insert', '\x1b[2~'],
    ['Delete', '\x1b[3~'],
    ['F1', '\x1bOP'],
    ['F2', '\x1bOQ'],
    ['F3', '\x1bOR'],
    ['F4', '\x1bOS'],
    ['F5', '\x1b[15~'],
    ['F6', '\x1b[17~'],
    ['F7', '\x1b[18~'],
    ['F8', '\x1b[19~'],
    ['F9', '\x1b[20~'],
    ['F10', '\x1b[21~'],
    ['F11', '\x1b[23~'],
    ['F12', '\x1b[24~'],
    ['BTab', '\x1b[Z'],
  ])('%s → %j', (token, bytes) => {
    expect(keys(token)).toBe(bytes);
  });
});

describe('reference: bracketed paste', () => {
  it('wraps the text in ESC[200~ … ESC[201~', () => {
    expect(encodePaste('import sys\nprint(sys.version)')).toBe(
      '\x1b[200~import sys\nprint(sys.version)\x1b[201~',
    );
  });
});
