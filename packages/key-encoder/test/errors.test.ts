import { isProcmuxError, type ProcmuxError } from '@procmux/core-types';
import { thrownBy } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { encodeKey, encodeKeySequence, encodePaste } from '../src/index.js';

function errorOf(fn: () => unknown): ProcmuxError {
  const error = thrownBy(fn);
  expect(isProcmuxError(error), `expected a ProcmuxError, got ${String(error)}`).toBe(true);
  return error as ProcmuxError;
}

const keyError = (token: string) => errorOf(() => encodeKeySequence({ keys: [token] }));

describe('unknown keys', () => {
  it.each([
    ['Entr', 'Enter'],
    ['enterr', 'Enter'],
    ['Escpae', 'Escape'],
    ['PgDown', 'PgDn'],
    ['PageDwon', 'PageDown'],
    ['Bakspace', 'Backspace'],
    ['Uo', 'Up'],
    ['Dlete', 'Delete'],
    ['C-Lfet', 'C-Left'],
    ['M-Hme', 'M-Home'],
    ['F13', 'F1'],
  ])('names %j and suggests %j', (token, suggestion) => {
    const error = keyError(token);
    expect(error.code).toBe('ERR_INVALID_KEY');
    expect(error.message).toContain(`unknown key "${token}" (did you mean "${suggestion}"?)`);
    expect(error.details).toEqual({ token, suggestion });
  });

  it.each([
    ['Ctrl+C', 'C-C'],
    ['ctrl-c', 'C-c'],
    ['Alt+x', 'M-x'],
    ['Control+Alt+Delete', 'C-M-Delete'],
    ['Shift+Tab', 'S-Tab'],
    ['ArrowUp', 'Up'],
    ['Ctrl+ArrowLeft', 'C-Left'],
  ])('rewrites the common spelling %j to %j', (token, suggestion) => {
    expect(keyError(token).message).toContain(`(did you mean "${suggestion}"?)`);
  });

  it('suggests the bare name when the modifiers do not fit it', () => {
    expect(keyError('C-Entr').details).toEqual({ token: 'C-Entr', suggestion: 'Enter' });
  });

  it('suggests nothing for a token far from every name, and says what a key is', () => {
    const error = keyError('hello');
    expect(error.details).toEqual({ token: 'hello', suggestion: undefined });
    expect(error.message).toMatch(/^unknown key "hello"\. A key is one character, a name \(Enter, Tab/);
    expect(error.message).toContain('F1–F12');
  });

  it('refuses modifier prefixes with nothing after them', () => {
    for (const token of ['C-', 'M-', 'S-', 'X-a', 'Ctrl']) {
      expect(keyError(token).code).toBe('ERR_INVALID_KEY');
    }
  });

  it('does not repeat a very long token in the message', () => {
    const token = 'x'.repeat(500);
    expect(keyError(token).message).toContain('unknown key a string of 500 characters');
  });

  it('refuses an empty or non-string token', () => {
    expect(keyError('').message).toMatch(/^a key must be a non-empty string .* \(got ""\)$/);
    const error = errorOf(() => encodeKeySequence({ keys: [42 as unknown as string] }));
    expect(error.code).toBe('ERR_INVALID_KEY');
    expect(error.message).toContain('(got 42)');
    expect(error.details).toEqual({ token: undefined });
  });

  it('refuses the whole sequence, sending nothing, when any token is bad', () => {
    expect(() => encodeKeySequence({ literal: 'rm -rf build', keys: ['Enterr'] })).toThrow(/Enterr/);
  });
});

describe('modifiers a terminal cannot send', () => {
  it.each([
    ['C-Enter', 'Enter takes M-'],
    ['S-Enter', 'Enter takes M-'],
    ['C-Tab', 'Tab takes M- or S-'],
    ['C-S-Tab', 'no code for C-S-Tab'],
    ['C-S-Space', 'no code for C-S-Space'],
    ['C-S-Backspace', 'no code for C-S-Backspace'],
    ['M-C-S-Space', 'no code for C-S-Space'],
    ['C-Escape', 'Escape takes M-'],
    ['S-Space', 'Space takes M- or C-'],
    ['S-Backspace', 'Backspace takes M- or C-'],
    ['S-BTab', 'BTab takes M-'],
  ])('%s: says what the key takes (%s)', (token, hint) => {
    const error = keyError(token);
    expect(error.code).toBe('ERR_INVALID_KEY');
    expect(error.message).toContain(`key "${token}": a terminal has no code for`);
    expect(error.message).toContain(hint);
    expect(error.details).toEqual({ token });
  });

  it('says exactly which prefixes a key takes', () => {
    expect(keyError('C-S-Space').message).toBe(
      'key "C-S-Space": a terminal has no code for C-S-Space; Space takes M- or C-',
    );
    expect(keyError('C-S-Backspace').message).toBe(
      'key "C-S-Backspace": a terminal has no code for C-S-Backspace; Backspace takes M- or C-',
    );
    expect(keyError('M-C-S-Tab').message).toBe(
      'key "M-C-S-Tab": a terminal has no code for C-S-Tab; Tab takes M- or S-',
    );
    expect(keyError('C-Enter').message).toBe(
      'key "C-Enter": a terminal has no code for C-Enter; Enter takes M-',
    );
  });

  it('still sends the one-modifier forms of those keys', () => {
    expect(encodeKeySequence({ keys: ['C-Space', 'C-Backspace', 'S-Tab', 'M-Space', 'M-C-Space'] })).toBe(
      '\x00\x08\x1b[Z\x1b \x1b\x00',
    );
  });

  it.each(['C-1', 'C-9', 'C-0', 'C--', 'C-é', 'C-{', 'C-`', '^1'])('%s: Ctrl has no code for it', (token) => {
    const error = keyError(token);
    expect(error.message).toContain('Ctrl has no terminal code for');
    expect(error.message).toContain('Ctrl works with letters');
    expect(error.details).toEqual({ token });
  });

  it.each(['S-1', 'S--', 'S-ß', 'S-✓'])('%s: Shift changes only letters', (token) => {
    const error = keyError(token);
    expect(error.message).toContain('Shift changes only letters');
    expect(error.details).toEqual({ token });
  });
});

describe('hex bytes', () => {
  it('accepts 1–2 hex digits with or without 0x, in either case', () => {
    expect(encodeKeySequence({ hex: ['0x04', '04', '4', '1b', '0X1B', '7f', '0x0', '00'] })).toBe(
      '\x04\x04\x04\x1b\x1b\x7f\x00\x00',
    );
  });

  it('turns bytes that form UTF-8 into that character, so the bytes written are the bytes given', () => {
    const text = encodeKeySequence({ hex: ['0xe2', '0x9c', '0x93', 'c3', 'a9'] });
    expect(text).toBe('✓é');
    expect([...Buffer.from(text, 'utf8')]).toEqual([0xe2, 0x9c, 0x93, 0xc3, 0xa9]);
  });

  it('keeps a byte-order mark as sent', () => {
    expect(encodeKeySequence({ hex: ['ef', 'bb', 'bf', '41'] })).toBe('\ufeffA');
  });

  it.each(['0x100', '123', 'zz', '0x', '', ' 04', '0x0g', '-1', '0b1'])('refuses %j', (token) => {
    const error = errorOf(() => encodeKeySequence({ hex: [token] }));
    expect(error.code).toBe('ERR_INVALID_KEY');
    expect(error.message).toContain(`invalid hex byte ${JSON.stringify(token)}`);
    expect(error.message).toContain('1 or 2 hex digits');
    expect(error.details).toEqual({ token });
  });

  it('refuses a non-string hex token', () => {
    const error = errorOf(() => encodeKeySequence({ hex: [4 as unknown as string] }));
    expect(error.message).toContain('invalid hex byte 4');
    expect(error.details).toEqual({ token: undefined });
  });

  it.each([[['ff']], [['80']], [['e2', '9c']], [['c3']], [['ed', 'a0', '80']]])(
    'refuses bytes that are not whole UTF-8 characters: %j',
    (hex) => {
      const error = errorOf(() => encodeKeySequence({ hex }));
      expect(error.code).toBe('ERR_INVALID_KEY');
      expect(error.message).toContain('are not valid UTF-8');
      expect(error.details).toEqual({ hex: hex.map((byte) => `0x${byte}`).join(' ') });
      expect(error.cause).toBeInstanceOf(TypeError);
    },
  );

  it('shows the bytes zero-padded in the message', () => {
    expect(errorOf(() => encodeKeySequence({ hex: ['4', 'ff'] })).message).toMatch(
      /^hex bytes 0x04 0xff are not valid UTF-8: stdin takes text, so bytes 0x80–0xff must form whole UTF-8 characters \(bytes 0x00–0x7f are always allowed\)$/,
    );
  });
});

describe('request shape', () => {
  it.each([
    [null, 'request must be an object with keys, hex or literal (got null)'],
    [42, 'request must be an object with keys, hex or literal (got 42)'],
    [{ keys: 'Enter' }, 'keys must be an array of key names (got "Enter")'],
    [{ hex: '04' }, 'hex must be an array of hex bytes (got "04")'],
    [{ literal: 5 }, 'literal must be a string (got 5)'],
    [
      { keys: ['Up'], applicationCursorKeys: 'yes' },
      'applicationCursorKeys must be true or false (got "yes")',
    ],
  ])('refuses %j with ERR_INVALID_OPTION', (request, message) => {
    const error = errorOf(() => encodeKeySequence(request as never));
    expect(error.code).toBe('ERR_INVALID_OPTION');
    expect(error.message).toBe(message);
    const option = typeof request === 'object' && request !== null ? Object.keys(request).at(-1) : 'request';
    expect(error.details).toEqual({ option });
  });

  it('encodeKey refuses a non-string directly too', () => {
    expect(errorOf(() => encodeKey(undefined)).code).toBe('ERR_INVALID_KEY');
  });

  it('encodePaste refuses a non-string text and a non-boolean bracketed', () => {
    const text = errorOf(() => encodePaste(3 as unknown as string));
    expect(text.message).toBe('text must be a string (the text to paste) (got 3)');
    expect(text.code).toBe('ERR_INVALID_OPTION');
    expect(text.details).toEqual({ option: 'text' });
    const error = errorOf(() => encodePaste('x', { bracketed: 'no' as unknown as boolean }));
    expect(error.code).toBe('ERR_INVALID_OPTION');
    expect(error.message).toBe('bracketed must be true or false (got "no")');
    expect(error.details).toEqual({ option: 'bracketed' });
  });
});
