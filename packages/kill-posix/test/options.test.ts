import { checkLeaksAfterAll, throwsWith } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { resolveGraceMs, validateMarker, validateOptions, validatePid } from '../src/options.js';

const errorOf = (fn: () => unknown): Error => throwsWith(fn, 'ERR_INVALID_OPTION');

describe('options', () => {
  it('takes a positive integer pid that is neither init nor ourselves', () => {
    expect(validatePid(4242, 10)).toBe(4242);
    expect(errorOf(() => validatePid(undefined, 10)).message).toMatch(
      /^pid must be an integer from 1 to 2147483647/,
    );
    expect(errorOf(() => validatePid(-3, 10)).message).toBe(
      'pid must be an integer from 1 to 2147483647 (got -3)',
    );
    expect(errorOf(() => validatePid(2 ** 31, 10)).message).toBe(
      'pid must be an integer from 1 to 2147483647 (got 2147483648)',
    );
    expect(errorOf(() => validatePid('7', 10)).message).toBe(
      'pid must be an integer from 1 to 2147483647 (got "7")',
    );
    expect(errorOf(() => validatePid(10, 10)).message).toBe(
      "pid must be other than 1 (init) and this process's own pid 10 (got 10)",
    );
  });

  it('defaults the grace to 3000 ms and refuses, never clamps, what is outside 0..60000', () => {
    expect(resolveGraceMs(undefined)).toBe(3000);
    expect(resolveGraceMs(0)).toBe(0);
    expect(resolveGraceMs(60_000)).toBe(60_000);
    for (const value of [-1, -Infinity, 1234.5, 60_001, Infinity]) {
      expect(errorOf(() => resolveGraceMs(value)).message).toMatch(
        /^graceMs must be an integer from 0 to 60000/,
      );
    }
  });

  it('refuses a grace that is NaN or not a number, saying what is allowed', () => {
    expect(errorOf(() => resolveGraceMs(Number.NaN)).message).toBe(
      'graceMs must be an integer from 0 to 60000 (got NaN)',
    );
    expect(errorOf(() => resolveGraceMs('5')).message).toContain('(got "5")');
    expect(errorOf(() => resolveGraceMs(null)).message).toContain('(got null)');
  });

  it('takes a marker that can be an environment value', () => {
    expect(validateMarker(undefined)).toBeUndefined();
    expect(validateMarker('123-1-ab')).toBe('123-1-ab');
    expect(errorOf(() => validateMarker('a\0b')).message).toMatch(/^marker must be a non-empty string/);
    expect(errorOf(() => validateMarker(7)).message).toContain('(got 7)');
  });

  it('takes an options object, or nothing', () => {
    expect(validateOptions(undefined)).toEqual({});
    expect(validateOptions(null)).toEqual({});
    expect(validateOptions({ graceMs: 1 })).toEqual({ graceMs: 1 });
    expect(errorOf(() => validateOptions([])).message).toBe('options must be an object (got an array)');
    expect(errorOf(() => validateOptions('x')).message).toBe('options must be an object (got "x")');
  });
});

checkLeaksAfterAll();
