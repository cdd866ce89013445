// The checks both adapters apply: each refuses with ERR_INVALID_OPTION and says what is allowed.
import { throwsWith } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import {
  checkKillMode,
  checkPtyCwd,
  checkPtyEnv,
  checkPtyOptions,
  resolveKillTimings,
  resolvePtySize,
  resolvePtyTerm,
} from '../src/index.js';

describe('kill and timer checks', () => {
  it('kill mode defaults to force and lists both modes when refusing', () => {
    expect(checkKillMode(undefined)).toBe('force');
    expect(checkKillMode('graceful')).toBe('graceful');
    expect(throwsWith(() => checkKillMode('soft'), 'ERR_INVALID_OPTION').details).toEqual({
      option: 'mode',
      values: ['graceful', 'force'],
    });
  });

  it('kill timings default to 3 s grace and 4 s settle, 0 to 60000, never clamped', () => {
    expect(resolveKillTimings({})).toEqual({ killGraceMs: 3000, forceKillSettleMs: 4000 });
    expect(resolveKillTimings({ killGraceMs: 0, forceKillSettleMs: 60_000 })).toEqual({
      killGraceMs: 0,
      forceKillSettleMs: 60_000,
    });
    expect(() => resolveKillTimings({ killGraceMs: 60_001 })).toThrow(
      'killGraceMs must be an integer from 0 to 60000 (got 60001)',
    );
    expect(() => resolveKillTimings({ forceKillSettleMs: -5 })).toThrow(
      'forceKillSettleMs must be an integer from 0 to 60000 (got -5)',
    );
  });
});

describe('spawn checks', () => {
  it('options must be an object', () => {
    expect(checkPtyOptions({ command: 'x' })).toEqual({ command: 'x' });
    expect(throwsWith(() => checkPtyOptions(null), 'ERR_INVALID_OPTION').message).toBe(
      'options must be an object (got null)',
    );
    expect(() => checkPtyOptions([])).toThrow('options must be an object (got an array)');
  });

  it('size defaults to 120 x 30 and refuses beyond the terminal limits', () => {
    expect(resolvePtySize({})).toEqual({ cols: 120, rows: 30 });
    expect(resolvePtySize({ cols: 500, rows: 200 })).toEqual({ cols: 500, rows: 200 });
    expect(() => resolvePtySize({ cols: 501 })).toThrow('cols must be an integer from 1 to 500 (got 501)');
  });

  it('term is printable ASCII up to 256 characters', () => {
    expect(resolvePtyTerm(undefined)).toBe('xterm-256color');
    expect(resolvePtyTerm('x'.repeat(256))).toBe('x'.repeat(256));
    for (const bad of ['', 'xterm 256', 'x'.repeat(257), 'ü', 3]) {
      expect(throwsWith(() => resolvePtyTerm(bad), 'ERR_INVALID_OPTION').message).toMatch(
        /^term must be 1 to 256 printable ASCII characters without spaces/,
      );
    }
  });

  it('cwd is a non-empty path without NUL', () => {
    expect(checkPtyCwd(undefined)).toBeUndefined();
    expect(checkPtyCwd('sub')).toBe('sub');
    expect(() => checkPtyCwd('')).toThrow(/^cwd must be a non-empty path without NUL/);
    expect(() => checkPtyCwd('a\0')).toThrow(/^cwd must be/);
  });

  it("env names: '=' refused on POSIX, a leading '=' allowed on Windows", () => {
    expect(checkPtyEnv({ '=C:': 'C:\\' }, true)).toEqual({ '=C:': 'C:\\' });
    expect(() => checkPtyEnv({ '=C:': 'C:\\' }, false)).toThrow(/without NUL or '='/);
    expect(() => checkPtyEnv({ 'A=B': '1' }, true)).toThrow(/after the first character/);
  });
});
