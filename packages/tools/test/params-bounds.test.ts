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

  it('names what was refused in the details: the whole object, the allowed list, the bound', () => {
    const notObject = throwsWith(() => new Params('ls', ['a'], 'exec'), 'ERR_INVALID_OPTION');
    expect(notObject.details).toEqual({ option: 'parameters' });
    const extra = throwsWith(() => p({ a: 1, b: 2 }).only('kill', ['c', 'd']), 'ERR_INVALID_OPTION');
    expect(extra.details).toEqual({ option: 'a, b', values: ['c', 'd'] });
    const long = throwsWith(() => p({ k: ['ab', 'abcd'] }).stringList('k', 3), 'ERR_INVALID_OPTION');
    expect(long.details).toEqual({ option: 'k[1]', max: 3 });
    expect(long.message).toBe('k[1] is "abcd"; each is at most 3 characters');
    expect(p({ k: ['abc'] }).stringList('k', 3)).toEqual(['abc']);
  });

  it('lists only the current names of renamed parameters as allowed, and refuses both names at once', () => {
    const aliases = { timeoutMs: 'timeout_ms' };
    const known = ['timeout_ms', 'timeoutMs'];
    expect(new Params({ timeoutMs: 5 }, known, 'exec', aliases).integer('timeout_ms', 0, 10)).toBe(5);
    const unknown = throwsWith(() => new Params({ x: 1 }, known, 'exec', aliases), 'ERR_INVALID_OPTION');
    expect(unknown.message).toBe('unknown parameter "x" for exec; allowed: timeout_ms');
    const both = throwsWith(
      () => new Params({ timeout_ms: 1, timeoutMs: 2 }, known, 'exec', aliases),
      'ERR_INVALID_OPTION',
    );
    expect(both.message).toBe('pass timeout_ms or its old name timeoutMs, not both');
    expect(both.details).toEqual({ option: 'timeout_ms' });
    // With two renamed parameters the message names the old name of the one passed twice.
    const two = { timeoutMs: 'timeout_ms', maxBytes: 'max_bytes' };
    const twice = throwsWith(
      () =>
        new Params(
          { max_bytes: 1, maxBytes: 2 },
          ['timeout_ms', 'timeoutMs', 'max_bytes', 'maxBytes'],
          'log',
          two,
        ),
      'ERR_INVALID_OPTION',
    );
    expect(twice.message).toBe('pass max_bytes or its old name maxBytes, not both');
  });

  it('takes a string of exactly maxChars, refuses one longer, and checks no bound when none is given', () => {
    expect(p({ s: 'abc' }).string('s', { maxChars: 3 })).toBe('abc');
    const over = throwsWith(() => p({ s: 'abcd' }).string('s', { maxChars: 3 }), 'ERR_INVALID_OPTION');
    expect(over.message).toBe('s is 4 characters; at most 3 are allowed');
    expect(over.details).toEqual({ option: 's', max: 3 });
    expect(message(() => p({ s: 'x'.repeat(1500) }).string('s', { maxChars: 1200 }))).toBe(
      's is 1,500 characters; at most 1,200 are allowed',
    );
    expect(p({ s: 'x'.repeat(100_000) }).string('s')).toHaveLength(100_000);
  });

  it('refuses a NUL only where asked to, saying where it is and what cannot carry it', () => {
    expect(p({ s: 'a\0b' }).string('s')).toBe('a\0b');
    expect(p({ s: 'ab' }).string('s', { noNul: 'a path' })).toBe('ab');
    expect(message(() => p({ s: 'ab\0' }).string('s', { noNul: 'a path' }))).toBe(
      's contains a NUL character (\\0) at character 2; a path cannot carry NUL, so remove it',
    );
    expect(message(() => p({ s: '\0' }).string('s', { noNul: 'a path' }))).toContain('at character 0');
  });

  it('refuses a NUL in an environment value without echoing the value', () => {
    const error = throwsWith(() => p({ env: { A: 'x', B: 'se\0cret' } }).env('env'), 'ERR_INVALID_OPTION');
    expect(error.message).toBe('env.B contains a NUL character; environment values cannot carry NUL');
    expect(error.message).not.toContain('cret');
    expect(error.details).toEqual({ option: 'env.B' });
    expect(throwsWith(() => p({ env: { C: 1 } }).env('env'), 'ERR_INVALID_OPTION').details).toEqual({
      option: 'env.C',
    });
  });
});
