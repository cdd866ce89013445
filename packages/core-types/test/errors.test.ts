import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { abortError, ERROR_CODES, isProcmuxError, ProcmuxError } from '../src/index.js';

describe('ProcmuxError', () => {
  it('carries a stable code, a message and the cause', () => {
    const cause = new Error('ENOENT');
    const error = new ProcmuxError('ERR_PROCESS_SPAWN', 'command not found: nope', { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ProcmuxError');
    expect(error.code).toBe('ERR_PROCESS_SPAWN');
    expect(error.message).toBe('command not found: nope');
    expect(error.cause).toBe(cause);
  });

  it('is recognised with and without a code filter', () => {
    const error = new ProcmuxError('ERR_INVALID_KEY', 'unknown key "Entr"');
    expect(isProcmuxError(error)).toBe(true);
    expect(isProcmuxError(error, 'ERR_INVALID_KEY')).toBe(true);
    expect(isProcmuxError(error, 'ERR_PROCESS_STATE')).toBe(false);
  });

  it('is recognised across realms by its brand, not by instanceof', () => {
    const foreign = runInNewContext(`
      const e = new Error('from another realm');
      e[Symbol.for('procmux.error')] = true;
      e.code = 'ERR_PROCESS_LIMIT';
      e;
    `) as unknown;
    expect(foreign instanceof ProcmuxError).toBe(false);
    expect(isProcmuxError(foreign, 'ERR_PROCESS_LIMIT')).toBe(true);
  });

  it('rejects look-alikes without the brand', () => {
    expect(isProcmuxError({ code: 'ERR_PROCESS_LIMIT', message: 'x' })).toBe(false);
    expect(isProcmuxError(new Error('plain'))).toBe(false);
    expect(isProcmuxError(null)).toBe(false);
    expect(isProcmuxError('ERR_PROCESS_LIMIT')).toBe(false);
  });

  it('lists every code of docs/architecture.md exactly once', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    expect(ERROR_CODES).toContain('ERR_RECOVERY_TIMEOUT');
    expect(ERROR_CODES).toContain('ERR_INTERNAL');
    expect(ERROR_CODES).toHaveLength(21);
  });

  it('builds AbortErrors with the reason as cause', () => {
    const error = abortError('stop');
    expect(error.name).toBe('AbortError');
    expect(error.cause).toBe('stop');
    expect(abortError().cause).toBeUndefined();
  });
});
