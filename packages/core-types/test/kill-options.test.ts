import { throwsWith } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { resolveGraceMs, validateOptionsObject } from '../src/index.js';

describe('resolveGraceMs', () => {
  it('defaults to 3000 and takes an integer from 0 to 60000', () => {
    expect(resolveGraceMs(undefined)).toBe(3000);
    expect(resolveGraceMs(0)).toBe(0);
    expect(resolveGraceMs(1500)).toBe(1500);
    expect(resolveGraceMs(60_000)).toBe(60_000);
  });

  it.each([Number.NaN, '100', null, {}, -5, 60_001, 1.5, Number.POSITIVE_INFINITY])(
    'refuses %j, never clamps',
    (value) => {
      const caught = throwsWith(() => resolveGraceMs(value), 'ERR_INVALID_OPTION');
      expect(caught.message).toMatch(/^graceMs must be an integer from 0 to 60000 \(got /);
    },
  );
});

describe('validateOptionsObject', () => {
  it('accepts absent options and objects, refuses anything else', () => {
    expect(validateOptionsObject(undefined)).toEqual({});
    expect(validateOptionsObject(null)).toEqual({});
    expect(validateOptionsObject({ graceMs: 1 })).toEqual({ graceMs: 1 });
    expect(() => validateOptionsObject([1])).toThrow('options must be an object (got an array)');
    expect(() => validateOptionsObject(5)).toThrow('options must be an object (got 5)');
  });
});
