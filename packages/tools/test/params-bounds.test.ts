// The bounds and messages of Params a mutation run showed unasserted: exact edges, the
// no-parameters wording, each refusal's message.
import { throwsWith } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { Params } from '../src/params.js';

const p = (raw: Record<string, unknown>) => new Params(raw, Object.keys(raw), 'exec');
const message = (fn: () => unknown) => throwsWith(fn, 'ERR_INVALID_OPTION').message;

describe('Params at its edges', () => {
  it('accepts an action with exactly the parameters it takes, and says when it takes none', () => {
    expect(() => p({ a: 1 }).only('kill', ['a'])).not.toThrow();
    expect(() => p({}).only('list', [])).not.toThrow();
    expect(message(() => p({ a: 1 }).only('list', []))).toBe(
      'a does not apply to list; it takes no other parameters',
    );
    expect(message(() => p({ a: 1, b: 2 }).only('kill', ['c', 'd']))).toBe(
      'a, b do not apply to kill; it takes c, d',
    );
  });

  it('refuses a blank string only where asked to', () => {
    expect(p({ s: ' ' }).string('s')).toBe(' ');
    expect(p({ s: 'x' }).string('s', { nonEmpty: true })).toBe('x');
    expect(message(() => p({ s: ' \t' }).string('s', { nonEmpty: true }))).toBe('s must not be empty');
  });

  it('takes integers from min to max inclusive', () => {
    expect(p({ n: 1 }).integer('n', 1, 5)).toBe(1);
    expect(p({ n: 5 }).integer('n', 1, 5)).toBe(5);
    for (const n of [0, 6, 2.5, '3', Number.NaN]) {
      expect(message(() => p({ n }).integer('n', 1, 5))).toMatch(/^n must be an integer from 1 to 5 \(got /);
    }
  });

  it('takes finite numbers only', () => {
    expect(p({ t: -1.5 }).number('t')).toBe(-1.5);
    for (const t of [Number.POSITIVE_INFINITY, Number.NaN, '5']) {
      expect(message(() => p({ t }).number('t'))).toMatch(/^t must be a number of milliseconds \(got /);
    }
  });

  it('takes one of the listed choices, compared exactly', () => {
    expect(p({ m: 'b' }).oneOf('m', ['a', 'b'])).toBe('b');
    for (const m of ['B', '', 1]) {
      expect(message(() => p({ m }).oneOf('m', ['a', 'b']))).toMatch(/^m must be one of a, b \(got /);
    }
  });

  it('refuses an empty string inside a list', () => {
    expect(p({ k: ['a', 'b'] }).stringList('k')).toEqual(['a', 'b']);
    expect(message(() => p({ k: ['a', ''] }).stringList('k'))).toMatch(
      /^k must be a non-empty array of non-empty strings \(got an array\)$/,
    );
    expect(message(() => p({ k: [] }).stringList('k'))).toMatch(/^k must be a non-empty array/);
    expect(message(() => p({ k: [1] }).stringList('k'))).toMatch(/^k must be a non-empty array/);
  });

  it('refuses an env that is not a plain mapping', () => {
    for (const env of ['A=1', ['A=1'], 3]) {
      expect(message(() => p({ env }).env('env'))).toMatch(
        /^env must be an object mapping variable names to string values \(got /,
      );
    }
  });
});
