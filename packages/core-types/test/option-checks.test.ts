// The validation toolkit every package checks its options with: each helper accepts exactly
// what it documents, refuses the rest with ERR_INVALID_OPTION, a message saying what is
// allowed, and details of the one shape; nothing is clamped.
import { throwsWith } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import {
  booleanOption,
  envOption,
  exactlyOne,
  functionOption,
  integerOption,
  invalidOption,
  knownKeys,
  nonEmptyString,
  oneOf,
  optionsObject,
  resolveLimit,
  stringArrayOption,
} from '../src/index.js';

describe('invalidOption', () => {
  it('says what is allowed, shows the value only when given, and carries the bounds as details', () => {
    const shown = invalidOption('cols', 'an integer from 1 to 500', { value: 0, min: 1, max: 500 });
    expect(shown.code).toBe('ERR_INVALID_OPTION');
    expect(shown.message).toBe('cols must be an integer from 1 to 500 (got 0)');
    expect(shown.details).toEqual({ option: 'cols', min: 1, max: 500 });
    const hidden = invalidOption('command', 'a non-empty string');
    expect(hidden.message).toBe('command must be a non-empty string');
    expect(hidden.details).toEqual({ option: 'command' });
    expect(invalidOption('x', 'y', { value: undefined }).message).toBe('x must be y (got undefined)');
  });

  it('keeps a cause', () => {
    const cause = new Error('under');
    expect(invalidOption('x', 'y', { cause }).cause).toBe(cause);
  });
});

describe('integerOption', () => {
  it('accepts both ends, defaults undefined, and refuses everything else without clamping', () => {
    expect(integerOption('n', 0, { min: 0, max: 5 })).toBe(0);
    expect(integerOption('n', 5, { min: 0, max: 5 })).toBe(5);
    expect(integerOption('n', undefined, { min: 0, max: 5, default: 3 })).toBe(3);
    expect(integerOption('n', undefined, { min: 0, max: 5 })).toBeUndefined();
    for (const bad of [-1, 6, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '3', null]) {
      const error = throwsWith(() => integerOption('n', bad, { min: 0, max: 5 }), 'ERR_INVALID_OPTION');
      expect(error.message).toMatch(/^n must be an integer from 0 to 5 \(got /);
      expect(error.details).toEqual({ option: 'n', min: 0, max: 5 });
    }
  });

  it('refuses undefined when required', () => {
    expect(
      throwsWith(
        () => integerOption('n', undefined, { min: 1, max: 2, required: true }),
        'ERR_INVALID_OPTION',
      ).message,
    ).toBe('n must be an integer from 1 to 2 (got undefined)');
  });

  it('backs resolveLimit with the same message and details', () => {
    expect(resolveLimit('w', undefined, { default: 4, hard: 10 })).toBe(4);
    const error = throwsWith(() => resolveLimit('w', 11, { default: 4, hard: 10 }), 'ERR_INVALID_OPTION');
    expect(error.message).toBe('w must be an integer from 1 to 10 (got 11)');
    expect(error.details).toEqual({ option: 'w', min: 1, max: 10 });
  });
});

describe('oneOf', () => {
  it('accepts a listed value, defaults undefined, and lists the values when refusing', () => {
    const modes = ['graceful', 'force'] as const;
    expect(oneOf('mode', 'force', modes)).toBe('force');
    expect(oneOf('mode', undefined, modes, { default: 'graceful' })).toBe('graceful');
    expect(oneOf('mode', undefined, modes)).toBeUndefined();
    const error = throwsWith(() => oneOf('mode', 'FORCE', modes), 'ERR_INVALID_OPTION');
    expect(error.message).toBe(`mode must be one of 'graceful', 'force' (got "FORCE")`);
    expect(error.details).toEqual({ option: 'mode', values: ['graceful', 'force'] });
    expect(
      throwsWith(() => oneOf('mode', undefined, modes, { required: true }), 'ERR_INVALID_OPTION').message,
    ).toBe(`mode must be one of 'graceful', 'force' (got undefined)`);
  });
});

describe('nonEmptyString', () => {
  it('accepts a non-empty string and refuses empty, NUL and non-strings', () => {
    expect(nonEmptyString('cwd', '/tmp')).toBe('/tmp');
    expect(nonEmptyString('cwd', undefined)).toBeUndefined();
    expect(nonEmptyString('cwd', undefined, { default: '.' })).toBe('.');
    for (const bad of ['', 'a\0b', 3]) {
      const error = throwsWith(() => nonEmptyString('cwd', bad), 'ERR_INVALID_OPTION');
      expect(error.message).toMatch(/^cwd must be a non-empty string without NUL characters \(got /);
      expect(error.details).toEqual({ option: 'cwd' });
    }
  });

  it('applies nonBlank, maxChars, allowNul, required and secret', () => {
    expect(
      throwsWith(() => nonEmptyString('id', '  ', { nonBlank: true }), 'ERR_INVALID_OPTION').message,
    ).toBe('id must be a non-blank string without NUL characters (got "  ")');
    const long = throwsWith(() => nonEmptyString('id', 'abcd', { maxChars: 3 }), 'ERR_INVALID_OPTION');
    expect(long.message).toBe(
      'id must be a non-empty string of at most 3 characters without NUL characters (got "abcd")',
    );
    expect(long.details).toEqual({ option: 'id', max: 3 });
    expect(nonEmptyString('text', 'a\0b', { allowNul: true })).toBe('a\0b');
    expect(() => nonEmptyString('id', undefined, { required: true })).toThrow(/id must be/);
    const secret = throwsWith(
      () => nonEmptyString('token', 'a\0secret', { secret: true }),
      'ERR_INVALID_OPTION',
    );
    expect(secret.message).not.toContain('secret"');
    expect(secret.message).toBe('token must be a non-empty string without NUL characters');
  });
});

describe('the small helpers', () => {
  it('booleanOption takes true, false or the default', () => {
    expect(booleanOption('b', undefined, true)).toBe(true);
    expect(booleanOption('b', false, true)).toBe(false);
    expect(throwsWith(() => booleanOption('b', 'yes', true), 'ERR_INVALID_OPTION').message).toBe(
      'b must be true or false (got "yes")',
    );
  });

  it('functionOption takes a function or undefined', () => {
    const fn = () => 1;
    expect(functionOption('onExit', fn)).toBe(fn);
    expect(functionOption('onExit', undefined)).toBeUndefined();
    expect(throwsWith(() => functionOption('onExit', 1), 'ERR_INVALID_OPTION').details).toEqual({
      option: 'onExit',
    });
  });

  it('optionsObject takes an object, treats null and undefined as empty, refuses the rest', () => {
    expect(optionsObject(undefined)).toEqual({});
    expect(optionsObject(null)).toEqual({});
    const given = { a: 1 };
    expect(optionsObject(given)).toBe(given);
    for (const bad of [[], 'x', 3]) {
      expect(throwsWith(() => optionsObject(bad), 'ERR_INVALID_OPTION').details).toEqual({
        option: 'options',
      });
    }
    expect(throwsWith(() => optionsObject(1, 'limits'), 'ERR_INVALID_OPTION').message).toBe(
      'limits must be an object (got 1)',
    );
  });

  it('knownKeys refuses a typo and lists what is known', () => {
    knownKeys('limits', { maxSessions: 1 }, ['maxSessions', 'maxInputBytes']);
    const error = throwsWith(
      () => knownKeys('limits', { maxSesions: 1 }, ['maxSessions', 'maxInputBytes']),
      'ERR_INVALID_OPTION',
    );
    expect(error.message).toBe(
      'limits.maxSesions must be one of the known limits: maxSessions, maxInputBytes',
    );
    expect(error.details).toEqual({ option: 'limits.maxSesions', values: ['maxSessions', 'maxInputBytes'] });
  });

  it('exactlyOne refuses none and both', () => {
    exactlyOne({ command: 'ls' }, ['command', 'file']);
    const none = throwsWith(
      () => exactlyOne({}, ['command', 'file'], 'command runs in a shell'),
      'ERR_INVALID_OPTION',
    );
    expect(none.message).toBe(
      'command or file must be given, exactly one of the 2 (command runs in a shell)',
    );
    expect(none.details).toEqual({ option: 'command or file', missing: ['command', 'file'] });
    const both = throwsWith(
      () => exactlyOne({ command: 'ls', file: 'ls' }, ['command', 'file']),
      'ERR_INVALID_OPTION',
    );
    expect(both.details).toEqual({ option: 'command or file' });
  });

  it('stringArrayOption copies an array of NUL-free strings', () => {
    const args = ['-c', 'x'];
    const copy = stringArrayOption('args', args);
    expect(copy).toEqual(args);
    expect(copy).not.toBe(args);
    expect(stringArrayOption('args', undefined)).toBeUndefined();
    for (const bad of [['a\0'], [1], 'x']) {
      expect(throwsWith(() => stringArrayOption('args', bad), 'ERR_INVALID_OPTION').details).toEqual({
        option: 'args',
      });
    }
  });

  it('envOption checks names and values and never shows a value', () => {
    const env = { PATH: '/bin', GONE: undefined };
    expect(envOption(env)).toBe(env);
    expect(envOption(undefined)).toBeUndefined();
    expect(throwsWith(() => envOption('PATH=/bin'), 'ERR_INVALID_OPTION').details).toEqual({ option: 'env' });
    for (const name of ['', 'A=B', 'A\0']) {
      expect(throwsWith(() => envOption({ [name]: 'x' }), 'ERR_INVALID_OPTION').details).toEqual({
        option: 'env',
      });
    }
    const secret = throwsWith(() => envOption({ TOKEN: 'hunter2\0' }), 'ERR_INVALID_OPTION');
    expect(secret.message).not.toContain('hunter2');
    expect(secret.details).toEqual({ option: 'env.TOKEN' });
    expect(throwsWith(() => envOption({ N: 1 }, 'extraEnv'), 'ERR_INVALID_OPTION').details).toEqual({
      option: 'extraEnv.N',
    });
  });
});
