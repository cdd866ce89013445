import { describe, expect, it } from 'vitest';
import { describeTarget, resolveTarget } from '../src/target.js';

// The Windows paths cannot run here; what they hand to child_process.spawn is checked instead.
describe('resolveTarget', () => {
  it('wraps a command in bash --norc -c on POSIX', () => {
    expect(resolveTarget({ command: 'echo "$HOME"' }, 'linux', process.env)).toEqual({
      file: 'bash',
      args: ['--norc', '-c', 'echo "$HOME"'],
      windowsVerbatimArguments: false,
    });
  });

  it('wraps a command for cmd on Windows, to be passed verbatim', () => {
    const env = { ComSpec: 'C:\\Windows\\system32\\cmd.exe' };
    expect(resolveTarget({ command: 'echo "a b" & ver' }, 'win32', env)).toEqual({
      file: 'C:\\Windows\\system32\\cmd.exe',
      args: ['/d', '/s', '/c', '"echo "a b" & ver"'],
      windowsVerbatimArguments: true,
    });
  });

  it('runs a file with its arguments as given', () => {
    expect(resolveTarget({ file: 'node', args: ['-e', '1'] }, 'win32', {})).toEqual({
      file: 'node',
      args: ['-e', '1'],
      windowsVerbatimArguments: false,
    });
  });

  it('runs a file without arguments with none, and an empty file when neither is given', () => {
    expect(resolveTarget({ file: 'ls' }, 'linux', {}).args).toEqual([]);
    expect(resolveTarget({} as { file: string }, 'linux', {}).file).toBe('');
    expect(describeTarget({ file: 'ls' })).toBe('ls');
    expect(describeTarget({ args: ['-l'] } as unknown as { file: string })).toBe(' -l');
  });

  it('labels a command or a file for logs', () => {
    expect(describeTarget({ command: 'make test' })).toBe('make test');
    expect(describeTarget({ file: 'make', args: ['-j', '4'] })).toBe('make -j 4');
  });
});
