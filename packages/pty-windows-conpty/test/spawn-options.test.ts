import { invalidOptionMessage } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { type ConptyOptions, resolveConptySpawn } from '../src/spawn-options.js';

const env = { Path: 'C:\\Windows\\system32', ComSpec: 'C:\\Windows\\system32\\cmd.exe' };

function resolve(options: ConptyOptions) {
  return resolveConptySpawn(options, env, 'C:\\work');
}

function invalid(options: unknown): string {
  return invalidOptionMessage(() => resolveConptySpawn(options as ConptyOptions, env, 'C:\\work'));
}

describe('resolveConptySpawn', () => {
  it("takes cmd from the environment's ComSpec", () => {
    expect(resolve({ command: 'dir' })).toMatchObject({
      file: 'C:\\Windows\\system32\\cmd.exe',
      args: '/d /s /c "dir"',
    });
  });

  it('resolves cwd as a Windows path against the current directory', () => {
    expect(resolve({ command: 'dir' }).cwd).toBe('C:\\work');
    expect(resolve({ command: 'dir', cwd: 'sub\\dir' }).cwd).toBe('C:\\work\\sub\\dir');
    expect(resolve({ command: 'dir', cwd: 'D:/x/' }).cwd).toBe('D:\\x');
  });

  it('keeps Windows per-drive variables whose names start with =', () => {
    expect(resolve({ command: 'dir', env: { '=C:': 'C:\\work' } }).env['=C:']).toBe('C:\\work');
  });

  it('refuses a target that is missing, doubled or mixed up', () => {
    expect(invalid({})).toMatch(/^command or file must be given, exactly one of the 2/);
    expect(invalid({ command: 'a', args: [] })).toMatch(/^args must be given only with file/);
    expect(invalid({ file: 'a.exe', shell: 'cmd' })).toMatch(/^shell must be given only with command/);
    expect(invalid({ file: 'a.exe', comspec: 'cmd.exe' })).toMatch(
      /^comspec must be given only with command/,
    );
    expect(invalid({ file: '' })).toMatch(/file must be a non-empty string/);
    expect(invalid({ file: 'a.exe', args: [1] })).toMatch(/args must be an array of strings/);
    expect(invalid([])).toBe('options must be an object (got an array)');
  });

  it('refuses a bad size, cwd, term or environment, without showing env values', () => {
    expect(invalid({ command: 'x', cols: 501 })).toBe('cols must be an integer from 1 to 500 (got 501)');
    expect(invalid({ command: 'x', cwd: 7 })).toMatch(/^cwd must be a non-empty path without NUL/);
    expect(invalid({ command: 'x', term: '' })).toMatch(/term must be 1 to 256 printable ASCII/);
    expect(invalid({ command: 'x', env: null })).toMatch(/env must be an object/);
    expect(invalid({ command: 'x', env: { 'A=B': '1' } })).toMatch(
      /^env must be an object whose names are non-empty/,
    );
    const message = invalid({ command: 'x', env: { TOKEN: 'secret\0' } });
    expect(message).toBe('env.TOKEN must be a string without NUL characters, or undefined to leave it out');
  });
});
