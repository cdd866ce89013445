import { isProcmuxError } from '@procmux/core-types';
import { describe, expect, it } from 'vitest';
import { Params } from '../src/params.js';

function error(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    expect(isProcmuxError(e, 'ERR_INVALID_OPTION')).toBe(true);
    return e as Error;
  }
  throw new Error('expected an error');
}

describe('Params', () => {
  it('treats null and undefined as absent, and no object at all as empty', () => {
    const p = new Params({ a: null, b: undefined, c: 'x' }, ['a', 'b', 'c'], 't');
    expect(p.present()).toEqual(['c']);
    expect(p.has('a')).toBe(false);
    expect(new Params(undefined, [], 't').present()).toEqual([]);
    expect(new Params(null, [], 't').present()).toEqual([]);
  });

  it('refuses a non-object and names what it got', () => {
    expect(error(() => new Params('run ls', ['a'], 'exec')).message).toBe(
      'exec takes an object of named parameters (got "run ls")',
    );
    expect(error(() => new Params([1], ['a'], 'exec')).message).toContain('(got an array)');
  });

  it('refuses an unknown parameter and lists the allowed ones', () => {
    expect(error(() => new Params({ comand: 'ls' }, ['command', 'mode'], 'exec')).message).toBe(
      'unknown parameter "comand" for exec; allowed: command, mode',
    );
  });

  it('refuses parameters an action does not use instead of ignoring them', () => {
    const p = new Params(
      { action: 'submit', text: 'x', timeout: 1 },
      ['action', 'text', 'timeout'],
      'process',
    );
    expect(error(() => p.only('action submit', ['action'])).message).toBe(
      'text, timeout do not apply to action submit; it takes action',
    );
    const q = new Params({ text: 'x' }, ['text'], 'process');
    expect(error(() => q.only('action list', [])).message).toBe(
      'text does not apply to action list; it takes no other parameters',
    );
  });

  it('reads strings, required or not, and refuses blanks where asked', () => {
    const p = new Params({ s: 'v', blank: '  ', n: 3 }, ['s', 'blank', 'n', 'missing'], 't');
    expect(p.string('s', { required: true })).toBe('v');
    expect(p.string('missing')).toBeUndefined();
    expect(error(() => p.string('missing', { required: true })).message).toBe('missing is required');
    expect(error(() => p.string('blank', { required: true, nonEmpty: true })).message).toBe(
      'blank must not be empty',
    );
    expect(error(() => p.string('n')).message).toBe('n must be a string (got 3)');
  });

  it('reads integers in range and never clamps', () => {
    const p = new Params({ ok: 5, big: 500, frac: 1.5, str: '5' }, ['ok', 'big', 'frac', 'str', 'none'], 't');
    expect(p.integer('ok', 0, 10)).toBe(5);
    expect(p.integer('none', 0, 10)).toBeUndefined();
    expect(error(() => p.integer('big', 0, 10)).message).toBe(
      'big must be an integer from 0 to 10 (got 500)',
    );
    expect(error(() => p.integer('frac', 0, 10)).message).toContain('(got 1.5)');
    expect(error(() => p.integer('str', 0, 10)).message).toContain('(got "5")');
  });

  it('reads finite numbers, booleans and choices', () => {
    const p = new Params(
      { n: -4.5, inf: Number.POSITIVE_INFINITY, b: true, nb: 'yes', m: 'x' },
      ['n', 'inf', 'b', 'nb', 'm', 'none'],
      't',
    );
    expect(p.number('n')).toBe(-4.5);
    expect(p.number('none')).toBeUndefined();
    expect(error(() => p.number('inf')).message).toBe('inf must be a number of milliseconds (got Infinity)');
    expect(p.boolean('b')).toBe(true);
    expect(p.boolean('none')).toBeUndefined();
    expect(error(() => p.boolean('nb')).message).toBe('nb must be true or false (got "yes")');
    expect(p.oneOf('none', ['a'])).toBeUndefined();
    expect(error(() => p.oneOf('m', ['a', 'b'])).message).toBe('m must be one of a, b (got "x")');
  });

  it('reads a key list from an array or a single string', () => {
    const p = new Params(
      { a: ['C-c', 'Up'], s: 'Enter', e: [], bad: ['a', 2] },
      ['a', 's', 'e', 'bad', 'none'],
      't',
    );
    expect(p.stringList('a')).toEqual(['C-c', 'Up']);
    expect(p.stringList('s')).toEqual(['Enter']);
    expect(error(() => p.stringList('e')).message).toContain('non-empty array of non-empty strings');
    expect(error(() => p.stringList('bad')).message).toContain('non-empty array');
    expect(error(() => p.stringList('none')).message).toBe('none is required');
  });

  it('reads env and never puts a value in an error', () => {
    const p = new Params(
      { env: { A: '1' }, arr: ['A=1'], badName: { 'A=B': 'x' }, badValue: { TOKEN: 42 }, empty: { '': 'x' } },
      ['env', 'arr', 'badName', 'badValue', 'empty', 'none'],
      't',
    );
    expect(p.env('env')).toEqual({ A: '1' });
    expect(p.env('none')).toBeUndefined();
    expect(error(() => p.env('arr')).message).toContain('must be an object mapping variable names');
    expect(error(() => p.env('badName')).message).toContain('invalid variable name "A=B"');
    expect(error(() => p.env('empty')).message).toContain('invalid variable name ""');
    const valueError = error(() => p.env('badValue')).message;
    expect(valueError).toBe('badValue.TOKEN must be a string');
    expect(valueError).not.toContain('42');
  });
});
