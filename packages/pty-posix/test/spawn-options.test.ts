import { invalidOptionMessage } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { type PosixPtyOptions, resolveSpawnOptions, resolveTimings } from '../src/spawn-options.js';

const env = { PATH: '/usr/bin:/bin', HOME: '/home/me', COLUMNS: '80', LINES: '24', TMUX: '/tmp/tmux' };

function resolve(options: PosixPtyOptions) {
  return resolveSpawnOptions(options, env, '/work');
}

function invalid(options: unknown): string {
  return invalidOptionMessage(() => resolveSpawnOptions(options as PosixPtyOptions, env, '/work'));
}

describe('resolveSpawnOptions', () => {
  it('wraps a command string in bash --norc -c', () => {
    const spawn = resolve({ command: 'echo "$HOME" | wc -c' });
    expect(spawn.file).toBe('bash');
    expect(spawn.args).toEqual(['--norc', '-c', 'echo "$HOME" | wc -c']);
  });

  it('uses the shell asked for', () => {
    expect(resolve({ command: 'echo hi', shell: '/bin/sh' })).toMatchObject({
      file: '/bin/sh',
      args: ['-c', 'echo hi'],
    });
  });

  it('runs a file with its args verbatim', () => {
    expect(resolve({ file: 'ls', args: ['-l', 'a b'] })).toMatchObject({ file: 'ls', args: ['-l', 'a b'] });
    expect(resolve({ file: 'ls' }).args).toEqual([]);
  });

  it('defaults to 120x30 in the current directory', () => {
    expect(resolve({ command: 'x' })).toMatchObject({ cols: 120, rows: 30, cwd: '/work' });
    expect(resolve({ command: 'x', cols: 500, rows: 200, cwd: 'sub' })).toMatchObject({
      cols: 500,
      rows: 200,
      cwd: '/work/sub',
    });
  });

  it("inherits the environment without the parent terminal's variables, adding TERM, PWD and a marker", () => {
    const spawn = resolve({ command: 'x', cwd: '/tmp' });
    expect(spawn.env).toEqual({
      PATH: '/usr/bin:/bin',
      HOME: '/home/me',
      TERM: 'xterm-256color',
      PWD: '/tmp',
      PROCMUX_TREE: spawn.marker,
    });
    expect(spawn.marker).toMatch(new RegExp(`^${process.pid}-`));
  });

  it('takes an explicit environment as it is, leaving out undefined values', () => {
    const spawn = resolve({
      command: 'x',
      env: { COLUMNS: '99', GONE: undefined, PATH: '/bin' },
      term: 'vt220',
    });
    expect(spawn.env).toEqual({
      COLUMNS: '99',
      PATH: '/bin',
      TERM: 'vt220',
      PWD: '/work',
      PROCMUX_TREE: spawn.marker,
    });
  });

  it('uses a caller-minted tree marker (the supervisor watches it before the fork)', () => {
    const spawn = resolve({ command: 'x', env: { PROCMUX_TREE: 'outer' }, treeMarker: '77-1-cafe' });
    expect(spawn.marker).toBe('77-1-cafe');
    expect(spawn.env.PROCMUX_TREE).toBe('77-1-cafe');
    expect(invalid({ command: 'x', treeMarker: 'a b' })).toMatch(/^treeMarker must be 1 to 128 characters/);
  });

  it('refuses a target that is missing, doubled or mixed up', () => {
    expect(invalid({})).toMatch(/^command or file must be given, exactly one of the 2/);
    expect(invalid({ command: 'a', file: 'b' })).toMatch(/exactly one of the 2/);
    expect(invalid({ command: 'a', args: ['x'] })).toMatch(/^args must be given only with file/);
    expect(invalid({ file: 'a', shell: 'bash' })).toMatch(/^shell must be given only with command/);
    expect(invalid({ file: '' })).toMatch(/file must be a non-empty string/);
    expect(invalid({ file: 'a', args: 'b' })).toMatch(/args must be an array of strings/);
    expect(invalid({ file: 'a', args: ['b\0'] })).toMatch(/args must be an array of strings without NUL/);
    expect(invalid({ command: '  ' })).toBe('command must be a non-blank string without NUL characters');
    expect(invalid(null)).toBe('options must be an object (got null)');
  });

  it('refuses a bad size, cwd or term, saying what is allowed', () => {
    expect(invalid({ command: 'x', cols: 0 })).toBe('cols must be an integer from 1 to 500 (got 0)');
    expect(invalid({ command: 'x', rows: 2.5 })).toBe('rows must be an integer from 1 to 200 (got 2.5)');
    expect(invalid({ command: 'x', cwd: '' })).toMatch(/^cwd must be a non-empty path without NUL/);
    expect(invalid({ command: 'x', term: 'xterm 256' })).toMatch(/term must be 1 to 256 printable ASCII/);
    expect(invalid({ command: 'x', term: 'x'.repeat(257) })).toMatch(/term must be/);
  });

  it('refuses a malformed environment without showing values', () => {
    expect(invalid({ command: 'x', env: 'PATH=/bin' })).toMatch(/env must be an object/);
    expect(invalid({ command: 'x', env: { 'A=B': 'x' } })).toMatch(
      /^env must be an object whose names are non-empty, without NUL or '='/,
    );
    const message = invalid({ command: 'x', env: { SECRET: 'hunter2\0' } });
    expect(message).toBe('env.SECRET must be a string without NUL characters, or undefined to leave it out');
    expect(message).not.toContain('hunter2');
  });
});

describe('resolveTimings', () => {
  it('defaults to a 250 ms drain, a 4 s force-kill settle and a 3 s kill grace', () => {
    expect(resolveTimings({})).toEqual({ drainTimeoutMs: 250, forceKillSettleMs: 4000, killGraceMs: 3000 });
    expect(resolveTimings({ drainTimeoutMs: 0, forceKillSettleMs: 60_000, killGraceMs: 0 })).toEqual({
      drainTimeoutMs: 0,
      forceKillSettleMs: 60_000,
      killGraceMs: 0,
    });
    expect(() => resolveTimings({ killGraceMs: 60_001 })).toThrow(
      'killGraceMs must be an integer from 0 to 60000',
    );
  });

  it('refuses a negative, fractional or huge timer', () => {
    expect(() => resolveTimings({ drainTimeoutMs: -1 })).toThrow(
      'drainTimeoutMs must be an integer from 0 to 60000 (got -1)',
    );
    expect(() => resolveTimings({ forceKillSettleMs: 60_001 })).toThrow(/forceKillSettleMs must be/);
  });
});
