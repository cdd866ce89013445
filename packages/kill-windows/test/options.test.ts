import { checkLeaksAfterAll, throwsWith } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { resolveGraceMs, validateOptions, validatePid } from '../src/options.js';

const errorOf = (fn: () => unknown): Error => throwsWith(fn, 'ERR_INVALID_OPTION');

describe('options', () => {
  it('takes a positive integer pid that is not ours', () => {
    expect(validatePid(4, 10)).toBe(4);
    expect(errorOf(() => validatePid(0, 10)).message).toBe(
      'pid must be an integer from 1 to 2147483647 (got 0)',
    );
    expect(errorOf(() => validatePid(2 ** 31, 10)).message).toBe(
      'pid must be an integer from 1 to 2147483647 (got 2147483648)',
    );
    expect(errorOf(() => validatePid(10, 10)).message).toBe(
      "pid must be other than this process's own pid 10 (got 10)",
    );
  });

  it('defaults the grace to 3000 ms and refuses, never clamps, the rest', () => {
    expect(resolveGraceMs(undefined)).toBe(3000);
    expect(errorOf(() => resolveGraceMs(-1)).message).toBe(
      'graceMs must be an integer from 0 to 60000 (got -1)',
    );
    expect(errorOf(() => resolveGraceMs(Infinity)).message).toMatch(
      /^graceMs must be an integer from 0 to 60000/,
    );
    expect(resolveGraceMs(250)).toBe(250);
    expect(errorOf(() => resolveGraceMs(Number.NaN)).message).toBe(
      'graceMs must be an integer from 0 to 60000 (got NaN)',
    );
    expect(errorOf(() => resolveGraceMs('1')).message).toContain('(got "1")');
  });

  it('takes an options object, or nothing', () => {
    expect(validateOptions(undefined)).toEqual({});
    expect(validateOptions(null)).toEqual({});
    expect(errorOf(() => validateOptions([1])).message).toBe('options must be an object (got an array)');
  });
});

checkLeaksAfterAll();
