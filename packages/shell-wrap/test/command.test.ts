import { isProcmuxError } from '@procmux/core-types';
import { thrownBy } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { shellWrap, windowsPtySpec } from '../src/index.js';

const errorOf = thrownBy;

describe('commands no shell can run are refused', () => {
  const platforms = ['linux', 'win32'] as const;

  it.each(['', '   ', '\t\n', '\r\n  '])('refuses an empty or whitespace-only command %j', (command) => {
    for (const platform of platforms) {
      const error = errorOf(() => shellWrap(command, { platform, hasExecutable: () => true }));
      expect(isProcmuxError(error, 'ERR_INVALID_OPTION')).toBe(true);
      expect((error as Error).message).toMatch(
        /^command must be a string with something to run, not only whitespace/,
      );
    }
    expect(
      isProcmuxError(
        errorOf(() => windowsPtySpec(command)),
        'ERR_INVALID_OPTION',
      ),
    ).toBe(true);
  });

  it('refuses a command that is not a string, naming what it got', () => {
    const error = errorOf(() => shellWrap(42 as unknown as string, { platform: 'linux' }));
    expect(isProcmuxError(error, 'ERR_INVALID_OPTION')).toBe(true);
    expect((error as Error).message).toBe('command must be a string (got 42)');
  });

  it('refuses a NUL character, which cannot cross exec', () => {
    for (const platform of platforms) {
      const error = errorOf(() => shellWrap('echo a\0b', { platform, hasExecutable: () => true }));
      expect(isProcmuxError(error, 'ERR_INVALID_OPTION')).toBe(true);
      expect((error as Error).message).toContain('NUL');
    }
  });

  it.each([
    ['', '""'],
    ['  ', '"  "'],
    [7, '7'],
  ])('refuses a shell option that is not a non-empty string (%j)', (shell, shown) => {
    const error = errorOf(() => shellWrap('echo', { platform: 'linux', shell: shell as string }));
    expect(isProcmuxError(error, 'ERR_INVALID_OPTION')).toBe(true);
    expect((error as Error).message).toContain(`(got ${shown})`);
    expect(isProcmuxError(errorOf(() => windowsPtySpec('echo', { shell: shell as string })))).toBe(true);
  });

  it('does not echo a long command back in the error', () => {
    const error = errorOf(() => shellWrap(' '.repeat(100), { platform: 'linux' }));
    expect((error as Error).message).toContain('a string of 100 characters');
  });
});
