// Every refusal's code, message and details, and the edge cases of shell resolution that a
// mutation run showed unasserted.
import { throwsWith } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import {
  defaultWindowsShell,
  encodePowerShellCommand,
  hasExecutableOnPath,
  POWERSHELL_PIPE_FLAGS,
  resolveShell,
  shellWrap,
  WINDOWS_COMMAND_LINE_LIMIT,
  windowsPtySpec,
} from '../src/index.js';

const linux = { platform: 'linux' as const, hasExecutable: () => true };
const win = { platform: 'win32' as const, env: {} };

describe('what each refusal says, in details', () => {
  it('names the command option for a non-string, an empty and a NUL-carrying command', () => {
    expect(throwsWith(() => shellWrap(42 as unknown as string, linux), 'ERR_INVALID_OPTION').details).toEqual(
      {
        option: 'command',
      },
    );
    const empty = throwsWith(() => shellWrap('  ', linux), 'ERR_INVALID_OPTION');
    expect(empty.message).toBe(
      'command must be a string with something to run, not only whitespace (got "  ")',
    );
    expect(empty.details).toEqual({ option: 'command' });
    const nul = throwsWith(() => shellWrap('a\0b', linux), 'ERR_INVALID_OPTION');
    expect(nul.message).toBe('command must be free of NUL characters (\\0)');
    expect(nul.details).toEqual({ option: 'command' });
  });

  it('names the shell option for an empty or non-string shell', () => {
    for (const shell of ['', ' ', 5]) {
      const error = throwsWith(
        () => shellWrap('echo', { ...linux, shell: shell as string }),
        'ERR_INVALID_OPTION',
      );
      expect(error.message).toMatch(/^shell must be a non-empty string naming a shell or its path \(got /);
      expect(error.details).toEqual({ option: 'shell' });
    }
  });

  it('says how to fix a multi-line cmd command', () => {
    for (const make of [
      () => shellWrap('echo a\necho b', win),
      () => windowsPtySpec('echo a\r\necho b', { env: {} }),
    ]) {
      const error = throwsWith(make, 'ERR_INVALID_OPTION');
      expect(error.message).toBe(
        'command must be a single line for cmd, which runs only up to the first line break ' +
          "(join the lines with '&' or '&&', or use shell 'powershell' or 'pwsh')",
      );
      expect(error.details).toEqual({ option: 'command' });
    }
  });

  it('gives the limit and the shell for a command line that is too long', () => {
    const error = throwsWith(
      () => shellWrap('x'.repeat(13_000), { ...win, shell: 'pwsh' }),
      'ERR_INVALID_OPTION',
    );
    expect(error.message).toMatch(
      /^command must be at most 32766 characters once wrapped for pwsh, a Windows command line \(it is \d+ characters; PowerShell's encoding makes a command about 2\.7 times longer\)$/,
    );
    expect(error.details).toEqual({ option: 'command', max: 32_766 });
  });
});

describe('the PowerShell command line at its limit', () => {
  // The whole line: the executable, a space, the flags and the encoded command joined by spaces.
  const lineLength = (n: number) =>
    'powershell.exe'.length +
    1 +
    [...POWERSHELL_PIPE_FLAGS, '-EncodedCommand', encodePowerShellCommand('x'.repeat(n))].join(' ').length;

  it('accepts the longest command that fits and refuses the first that does not', () => {
    let n = 1;
    while (lineLength(n + 1) < WINDOWS_COMMAND_LINE_LIMIT) n++;
    expect(() => shellWrap('x'.repeat(n), { ...win, shell: 'powershell' })).not.toThrow();
    const error = throwsWith(
      () => shellWrap('x'.repeat(n + 1), { ...win, shell: 'powershell' }),
      'ERR_INVALID_OPTION',
    );
    expect(error.message).toContain(`(it is ${lineLength(n + 1)} characters;`);
  });
});

describe('edge cases of choosing a shell', () => {
  it('turns off rc files for bash only, not for a shell whose name merely starts with bash', () => {
    expect(shellWrap('echo', { ...linux, shell: '/usr/local/bin/bash' }).args[0]).toBe('--norc');
    expect(shellWrap('echo', { ...linux, shell: 'bash5' }).args).toEqual(['-c', 'echo']);
    expect(shellWrap('echo', { ...linux, shell: '/opt/bash-static/sh' }).args).toEqual(['-c', 'echo']);
  });

  it('strips only a trailing .exe from a Windows shell name', () => {
    expect(resolveShell('pwsh.exe')).toBe('pwsh');
    expect(resolveShell('pw.exesh')).toBe('cmd');
    expect(resolveShell(undefined)).toBe('cmd');
  });

  it('keeps a requested path only when it names the shell that was resolved', () => {
    const path = 'C:\\tools\\pwsh.exe';
    expect(shellWrap('echo', { ...win, shell: path }).file).toBe(path);
    // A bare name is not a path: the executable is the shell's own name.
    expect(shellWrap('echo', { ...win, shell: 'PWSH' }).file).toBe('pwsh.exe');
    expect(shellWrap('echo', { ...win, shell: 'C:\\Windows\\System32\\CMD.EXE' }).file).toBe(
      'C:\\Windows\\System32\\CMD.EXE',
    );
    // An unknown shell at a path falls back to cmd, which is not that path (this once ran
    // bash.exe with cmd's arguments).
    expect(shellWrap('echo', { ...win, shell: 'C:\\tools\\bash.exe', comspec: 'C:\\cmd.exe' }).file).toBe(
      'C:\\cmd.exe',
    );
  });

  it('reads Windows environment names in any case, skipping empty values', () => {
    expect(defaultWindowsShell({ procmux_windows_shell: 'pwsh' })).toBe('pwsh');
    expect(defaultWindowsShell({ PROCMUX_WINDOWS_SHELL: '', Procmux_Windows_Shell: 'powershell' })).toBe(
      'powershell',
    );
    expect(defaultWindowsShell({ OTHER: 'pwsh' })).toBe('cmd');
    expect(defaultWindowsShell({ PROCMUX_WINDOWS_SHELL: undefined })).toBe('cmd');
    expect(defaultWindowsShell({ PROCMUX_WINDOWS_SHELL: undefined, procmux_windows_shell: 'pwsh' })).toBe(
      'pwsh',
    );
  });

  it('finds nothing on a missing PATH', () => {
    expect(hasExecutableOnPath('sh', {})).toBe(false);
  });
});
