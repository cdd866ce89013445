import { throwsWith } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { Params } from '../src/params.js';

describe('Params', () => {
  it('treats null and undefined as absent, and no object at all as empty', () => {
    const p = new Params({ a: null, b: undefined, c: 'x' }, ['a', 'b', 'c'], 't');
    expect(p.present()).toEqual(['c']);
    expect(p.has('a')).toBe(false);
    expect(new Params(undefined, [], 't').present()).toEqual([]);
    expect(new Params(null, [], 't').present()).toEqual([]);
  });

  it('refuses a non-object and names what it got', () => {
    expect(throwsWith(() => new Params('run ls', ['a'], 'exec'), 'ERR_INVALID_OPTION').message).toBe(
      'exec takes an object of named parameters (got "run ls")',
    );
    expect(throwsWith(() => new Params([1], ['a'], 'exec'), 'ERR_INVALID_OPTION').message).toContain(
      '(got an array)',
    );
  });

  it('refuses an unknown parameter and lists the allowed ones', () => {
    expect(
      throwsWith(() => new Params({ comand: 'ls' }, ['command', 'mode'], 'exec'), 'ERR_INVALID_OPTION')
        .message,
    ).toBe('unknown parameter "comand" for exec; allowed: command, mode');
  });

  it('gives every refusal the details shape of the option toolkit: the parameter and its bounds', () => {
    const p = new Params({ lines: 0, mode: 'x', keys: ['a'.repeat(9)] }, ['lines', 'mode', 'keys'], 't');
    expect(throwsWith(() => p.integer('lines', 1, 10), 'ERR_INVALID_OPTION').details).toEqual({
      option: 'lines',
      min: 1,
      max: 10,
    });
    expect(throwsWith(() => p.oneOf('mode', ['a', 'b']), 'ERR_INVALID_OPTION').details).toEqual({
      option: 'mode',
      values: ['a', 'b'],
    });
    expect(throwsWith(() => p.stringList('keys', 8), 'ERR_INVALID_OPTION').details).toEqual({
      option: 'keys[0]',
      max: 8,
    });
    expect(throwsWith(() => new Params({ x: 1 }, ['y'], 't'), 'ERR_INVALID_OPTION').details).toEqual({
      option: 'x',
      values: ['y'],
    });
  });

  it('refuses parameters an action does not use instead of ignoring them', () => {
    const p = new Params(
      { action: 'submit', text: 'x', timeout: 1 },
      ['action', 'text', 'timeout'],
      'process',
    );
    expect(throwsWith(() => p.only('action submit', ['action']), 'ERR_INVALID_OPTION').message).toBe(
      'text, timeout do not apply to action submit; it takes action',
    );
    const q = new Params({ text: 'x' }, ['text'], 'process');
    expect(throwsWith(() => q.only('action list', []), 'ERR_INVALID_OPTION').message).toBe(
      'text does not apply to action list; it takes no other parameters',
    );
  });

  it('reads strings, required or not, and refuses blanks where asked', () => {
    const p = new Params({ s: 'v', blank: '  ', n: 3 }, ['s', 'blank', 'n', 'missing'], 't');
    expect(p.string('s', { required: true })).toBe('v');
    expect(p.string('missing')).toBeUndefined();
    expect(throwsWith(() => p.string('missing', { required: true }), 'ERR_INVALID_OPTION').message).toBe(
      'missing is required',
    );
    expect(
      throwsWith(() => p.string('blank', { required: true, nonEmpty: true }), 'ERR_INVALID_OPTION').message,
    ).toBe('blank must not be empty');
    expect(throwsWith(() => p.string('n'), 'ERR_INVALID_OPTION').message).toBe('n must be a string (got 3)');
  });

  it('reads integers in range and never clamps', () => {
    const p = new Params({ ok: 5, big: 500, frac: 1.5, str: '5' }, ['ok', 'big', 'frac', 'str', 'none'], 't');
    expect(p.integer('ok', 0, 10)).toBe(5);
    expect(p.integer('none', 0, 10)).toBeUndefined();
    expect(throwsWith(() => p.integer('big', 0, 10), 'ERR_INVALID_OPTION').message).toBe(
      'big must be an integer from 0 to 10 (got 500)',
    );
    expect(throwsWith(() => p.integer('frac', 0, 10), 'ERR_INVALID_OPTION').message).toContain('(got 1.5)');
    expect(throwsWith(() => p.integer('str', 0, 10), 'ERR_INVALID_OPTION').message).toContain('(got "5")');
  });

  it('reads finite numbers, booleans and choices', () => {
    const p = new Params(
      { n: -4.5, inf: Number.POSITIVE_INFINITY, b: true, nb: 'yes', m: 'x' },
      ['n', 'inf', 'b', 'nb', 'm', 'none'],
      't',
    );
    expect(p.number('n')).toBe(-4.5);
    expect(p.number('none')).toBeUndefined();
    expect(throwsWith(() => p.number('inf'), 'ERR_INVALID_OPTION').message).toBe(
      'inf must be a number of milliseconds (got Infinity)',
    );
    expect(p.boolean('b')).toBe(true);
    expect(p.boolean('none')).toBeUndefined();
    expect(throwsWith(() => p.boolean('nb'), 'ERR_INVALID_OPTION').message).toBe(
      'nb must be true or false (got "yes")',
    );
    expect(p.oneOf('none', ['a'])).toBeUndefined();
    expect(throwsWith(() => p.oneOf('m', ['a', 'b']), 'ERR_INVALID_OPTION').message).toBe(
      'm must be one of a, b (got "x")',
    );
  });

  it('reads a key list from an array or a single string', () => {
    const p = new Params(
      { a: ['C-c', 'Up'], s: 'Enter', e: [], bad: ['a', 2] },
      ['a', 's', 'e', 'bad', 'none'],
      't',
    );
    expect(p.stringList('a')).toEqual(['C-c', 'Up']);
    expect(p.stringList('s')).toEqual(['Enter']);
    expect(throwsWith(() => p.stringList('e'), 'ERR_INVALID_OPTION').message).toContain(
      'non-empty array of non-empty strings',
    );
    expect(throwsWith(() => p.stringList('bad'), 'ERR_INVALID_OPTION').message).toContain('non-empty array');
    expect(throwsWith(() => p.stringList('none'), 'ERR_INVALID_OPTION').message).toBe('none is required');
  });

  it('reads env and never puts a value in an error', () => {
    const p = new Params(
      { env: { A: '1' }, arr: ['A=1'], badName: { 'A=B': 'x' }, badValue: { TOKEN: 42 }, empty: { '': 'x' } },
      ['env', 'arr', 'badName', 'badValue', 'empty', 'none'],
      't',
    );
    expect(p.env('env')).toEqual({ A: '1' });
    expect(p.env('none')).toBeUndefined();
    expect(throwsWith(() => p.env('arr'), 'ERR_INVALID_OPTION').message).toContain(
      'must be an object mapping variable names',
    );
    expect(throwsWith(() => p.env('badName'), 'ERR_INVALID_OPTION').message).toContain(
      'invalid variable name "A=B"',
    );
    expect(throwsWith(() => p.env('empty'), 'ERR_INVALID_OPTION').message).toContain(
      'invalid variable name ""',
    );
    const valueError = throwsWith(() => p.env('badValue'), 'ERR_INVALID_OPTION').message;
    expect(valueError).toBe('badValue.TOKEN must be a string');
    expect(valueError).not.toContain('42');
  });
});
