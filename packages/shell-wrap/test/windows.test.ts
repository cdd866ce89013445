import { createRequire } from 'node:module';
import { isProcmuxError, type ProcmuxError } from '@procmux/core-types';
import { thrownBy } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import {
  defaultWindowsShell,
  encodePowerShellCommand,
  resolveShell,
  shellWrap,
  WINDOWS_COMMAND_LINE_LIMIT,
  type WrappedCommand,
  windowsPtySpec,
} from '../src/index.js';

const win = { platform: 'win32' as const, env: {} };

// The commands a user types at a Windows prompt that naive quoting breaks.
const HARD_COMMANDS = [
  'echo hello',
  'echo "a b"  "c"',
  'dir "C:\\Program Files" /b',
  'echo %PATH% %NO_SUCH_VAR%',
  'echo a^&b ^| c ^^ d',
  'echo one & echo two && ver || exit /b 3',
  'type nul > out.txt < in.txt | find "x"',
  'echo héllo ✓ 日本語 😀',
  '"C:\\Program Files\\Tool\\tool.exe" --name "x y" \\"escaped\\"',
  'echo "unbalanced',
  'echo trailing backslash\\',
];

/**
 * What cmd runs for `cmd /s /c <tail>`: with /s it removes the first and the last quote of
 * the tail and keeps everything between them exactly.
 */
function cmdRuns(commandLine: string): string {
  const tail = commandLine.slice(commandLine.indexOf('/c ') + 3);
  const first = tail.indexOf('"');
  const last = tail.lastIndexOf('"');
  return tail.slice(0, first) + tail.slice(first + 1, last) + tail.slice(last + 1);
}

/** The command line libuv builds from verbatim arguments: joined by spaces, nothing escaped. */
function verbatimCommandLine(wrapped: WrappedCommand): string {
  expect(wrapped.windowsVerbatimArguments).toBe(true);
  return [wrapped.file, ...wrapped.args].join(' ');
}

function decodePowerShell(args: readonly string[]): string {
  const index = args.indexOf('-EncodedCommand');
  expect(index).toBe(args.length - 2);
  return Buffer.from(args[index + 1]!, 'base64').toString('utf16le');
}

const errorOf = thrownBy;

describe('shellWrap for cmd', () => {
  it('wraps in cmd /d /s /c "<command>" with verbatim arguments', () => {
    expect(shellWrap('echo hi', win)).toEqual({
      file: 'cmd.exe',
      args: ['/d', '/s', '/c', '"echo hi"'],
      windowsVerbatimArguments: true,
      shell: 'cmd',
    });
  });

  it.each(HARD_COMMANDS)('cmd receives %j exactly as typed', (command) => {
    const wrapped = shellWrap(command, win);
    expect(cmdRuns(verbatimCommandLine(wrapped))).toBe(command);
  });

  it('uses ComSpec from the environment, whatever its case', () => {
    for (const key of ['ComSpec', 'COMSPEC', 'comspec']) {
      const wrapped = shellWrap('ver', {
        platform: 'win32',
        env: { [key]: 'D:\\Windows\\system32\\cmd.exe' },
      });
      expect(wrapped.file).toBe('D:\\Windows\\system32\\cmd.exe');
    }
    expect(shellWrap('ver', { platform: 'win32', env: { ComSpec: '' } }).file).toBe('cmd.exe');
  });

  it('prefers an explicit comspec over the environment', () => {
    const wrapped = shellWrap('ver', { platform: 'win32', env: { ComSpec: 'a.exe' }, comspec: 'b.exe' });
    expect(wrapped.file).toBe('b.exe');
  });

  it('refuses a multi-line command, which cmd would cut at the first line break', () => {
    for (const command of ['echo a\necho b', 'echo a\r\necho b', 'echo a\r']) {
      const error = errorOf(() => shellWrap(command, win));
      expect(isProcmuxError(error, 'ERR_INVALID_OPTION')).toBe(true);
      expect((error as Error).message).toContain('single line');
      expect(isProcmuxError(errorOf(() => windowsPtySpec(command, { shell: 'cmd', env: {} })))).toBe(true);
    }
  });
});

describe('shellWrap for PowerShell and pwsh', () => {
  it.each([
    ['powershell', 'powershell.exe'],
    ['pwsh', 'pwsh.exe'],
  ])('runs %s with -NoLogo -NoProfile -NonInteractive -EncodedCommand', (shell, file) => {
    const wrapped = shellWrap('Get-Date', { ...win, shell });
    expect(wrapped).toEqual({
      file,
      args: [
        '-NoLogo',
        '-NoProfile',
        '-NonInteractive',
        '-EncodedCommand',
        encodePowerShellCommand('Get-Date'),
      ],
      windowsVerbatimArguments: false,
      shell,
    });
  });

  it.each([
    ...HARD_COMMANDS,
    'Write-Output "a `"b`" $env:USERPROFILE"',
    "Get-ChildItem | Where-Object { $_.Name -like '*.ts' }\nWrite-Host done",
  ])('the encoded payload decodes back to %j', (command) => {
    for (const shell of ['powershell', 'pwsh']) {
      const wrapped = shellWrap(command, { ...win, shell });
      expect(decodePowerShell(wrapped.args)).toBe(command);
      // Nothing on the command line for cmd or the C runtime to reinterpret.
      for (const arg of wrapped.args) expect(arg).toMatch(/^[-A-Za-z0-9+/=]+$/);
    }
  });

  it('keeps a path to a specific PowerShell install', () => {
    const path = 'C:\\Program Files\\PowerShell\\7\\pwsh.exe';
    expect(shellWrap('1', { ...win, shell: path }).file).toBe(path);
    expect(shellWrap('1', { ...win, shell: 'C:/tools/PowerShell.EXE' })).toMatchObject({
      file: 'C:/tools/PowerShell.EXE',
      shell: 'powershell',
    });
  });
});

describe('encodePowerShellCommand', () => {
  it('is base64 of the UTF-16LE bytes', () => {
    expect(encodePowerShellCommand('Write-Output "hi"')).toBe(
      'VwByAGkAdABlAC0ATwB1AHQAcAB1AHQAIAAiAGgAaQAiAA==',
    );
    const command = 'echo "ü ✓ 😀"';
    const bytes = Buffer.from(encodePowerShellCommand(command), 'base64');
    expect(bytes.length).toBe(command.length * 2);
    expect(bytes.toString('utf16le')).toBe(command);
  });
});

describe('choosing the Windows shell', () => {
  it('defaults to cmd', () => {
    expect(shellWrap('ver', win).shell).toBe('cmd');
  });

  it('reads the default from PROCMUX_WINDOWS_SHELL', () => {
    const env = { PROCMUX_WINDOWS_SHELL: 'pwsh' };
    expect(shellWrap('1', { platform: 'win32', env }).shell).toBe('pwsh');
    expect(windowsPtySpec('1', { env }).shell).toBe('pwsh');
    expect(shellWrap('1', { platform: 'win32', env: { procmux_windows_shell: 'powershell' } }).shell).toBe(
      'powershell',
    );
  });

  it('defaultWindowsShell resolves PROCMUX_WINDOWS_SHELL the same way', () => {
    expect(defaultWindowsShell({ PROCMUX_WINDOWS_SHELL: 'PWSH.EXE' })).toBe('pwsh');
    expect(defaultWindowsShell({ PROCMUX_WINDOWS_SHELL: 'zsh' })).toBe('cmd');
    expect(defaultWindowsShell({})).toBe('cmd');
  });

  it('reads WINDOWS_DEFAULT_SHELL as an alias, PROCMUX_WINDOWS_SHELL winning when both are set', () => {
    const alias = { WINDOWS_DEFAULT_SHELL: 'powershell' };
    expect(defaultWindowsShell(alias)).toBe('powershell');
    expect(shellWrap('1', { platform: 'win32', env: alias }).shell).toBe('powershell');
    expect(windowsPtySpec('1', { env: alias }).shell).toBe('powershell');
    const both = { WINDOWS_DEFAULT_SHELL: 'powershell', PROCMUX_WINDOWS_SHELL: 'pwsh' };
    expect(defaultWindowsShell(both)).toBe('pwsh');
    expect(shellWrap('1', { platform: 'win32', env: both }).shell).toBe('pwsh');
  });

  it('lets an explicit shell win over PROCMUX_WINDOWS_SHELL', () => {
    const env = { PROCMUX_WINDOWS_SHELL: 'pwsh' };
    expect(shellWrap('ver', { platform: 'win32', env, shell: 'cmd' }).shell).toBe('cmd');
  });

  it('falls back to cmd for a shell it does not know', () => {
    expect(shellWrap('ver', { ...win, shell: 'bash' }).file).toBe('cmd.exe');
    expect(shellWrap('ver', { platform: 'win32', env: { PROCMUX_WINDOWS_SHELL: 'fish' } }).shell).toBe('cmd');
  });

  it.each([
    ['cmd', 'cmd'],
    ['CMD.EXE', 'cmd'],
    ['C:\\Windows\\System32\\cmd.exe', 'cmd'],
    ['powershell', 'powershell'],
    ['PowerShell.exe', 'powershell'],
    ['pwsh', 'pwsh'],
    ['/opt/microsoft/powershell/7/pwsh', 'pwsh'],
    ['bash', 'cmd'],
    ['pwsh7', 'cmd'],
    ['', 'cmd'],
    [undefined, 'cmd'],
  ])('resolveShell(%j) is %s', (name, expected) => {
    expect(resolveShell(name)).toBe(expected);
  });

  it('uses the real process.env when no env is given', () => {
    const saved = process.env.PROCMUX_WINDOWS_SHELL;
    process.env.PROCMUX_WINDOWS_SHELL = 'powershell';
    try {
      expect(shellWrap('1', { platform: 'win32' }).shell).toBe('powershell');
      expect(windowsPtySpec('1').shell).toBe('powershell');
    } finally {
      if (saved === undefined) delete process.env.PROCMUX_WINDOWS_SHELL;
      else process.env.PROCMUX_WINDOWS_SHELL = saved;
    }
  });
});

describe('windowsPtySpec (ConPTY through node-pty)', () => {
  // node-pty's own command-line builder: a string `args` is appended as-is, an array is re-quoted.
  const { argsToCommandLine } = createRequire(import.meta.url)('node-pty/lib/windowsPtyAgent.js') as {
    argsToCommandLine(file: string, args: string | string[]): string;
  };

  it('gives cmd the verbatim tail /d /s /c "<command>"', () => {
    expect(
      windowsPtySpec('echo "a b" & ver', { shell: 'cmd', comspec: 'C:\\Windows\\system32\\cmd.exe' }),
    ).toEqual({
      file: 'C:\\Windows\\system32\\cmd.exe',
      commandLine: '/d /s /c "echo "a b" & ver"',
      shell: 'cmd',
    });
  });

  it.each(HARD_COMMANDS)('node-pty hands %j to cmd unchanged', (command) => {
    const spec = windowsPtySpec(command, { env: { ComSpec: 'C:\\Windows\\system32\\cmd.exe' } });
    const line = argsToCommandLine(spec.file, spec.commandLine);
    expect(line).toBe(`${spec.file} ${spec.commandLine}`);
    expect(cmdRuns(line)).toBe(command);
  });

  it('would break the quoting if the tail were passed as an array (why it is a string)', () => {
    const line = argsToCommandLine('cmd.exe', ['/d', '/s', '/c', 'echo "a b"']);
    expect(cmdRuns(line)).not.toBe('echo "a b"');
  });

  it('gives PowerShell an encoded command without -NonInteractive, so prompts can be answered', () => {
    const command = 'Read-Host "name?" | Write-Output\nWrite-Host "ü"';
    for (const shell of ['powershell', 'pwsh'] as const) {
      const spec = windowsPtySpec(command, { shell, env: {} });
      expect(spec.file).toBe(`${shell}.exe`);
      expect(spec.commandLine).toBe(`-NoLogo -NoProfile -EncodedCommand ${encodePowerShellCommand(command)}`);
      expect(decodePowerShell(spec.commandLine.split(' '))).toBe(command);
    }
  });

  it('quotes nothing itself: a path with spaces is left for node-pty to quote', () => {
    const file = 'C:\\Program Files\\PowerShell\\7\\pwsh.exe';
    const spec = windowsPtySpec('1', { shell: file, env: {} });
    expect(spec.file).toBe(file);
    expect(argsToCommandLine(spec.file, spec.commandLine)).toBe(`"${file}" ${spec.commandLine}`);
  });
});

describe('the Windows command-line limit', () => {
  const limit = WINDOWS_COMMAND_LINE_LIMIT - 1;

  it('accepts the longest cmd command that fits and refuses one character more', () => {
    const overhead = 'cmd.exe /d /s /c ""'.length;
    const longest = `echo ${'x'.repeat(limit - overhead - 5)}`;
    expect(verbatimCommandLine(shellWrap(longest, win)).length).toBe(limit);
    const error = errorOf(() => shellWrap(`${longest}x`, win));
    expect(isProcmuxError(error, 'ERR_INVALID_OPTION')).toBe(true);
    expect((error as Error).message).toContain(
      `once wrapped for cmd, a Windows command line (it is ${limit + 1} characters;`,
    );
    expect((error as ProcmuxError).details).toEqual({ option: 'command', max: limit });
  });

  it('counts PowerShell after encoding, which makes a command about 2.7 times longer', () => {
    const command = 'x'.repeat(13_000);
    expect(() => shellWrap(command, win)).not.toThrow();
    for (const shell of ['powershell', 'pwsh']) {
      expect(
        isProcmuxError(
          errorOf(() => shellWrap(command, { ...win, shell })),
          'ERR_INVALID_OPTION',
        ),
      ).toBe(true);
      expect(
        isProcmuxError(
          errorOf(() => windowsPtySpec(command, { shell, env: {} })),
          'ERR_INVALID_OPTION',
        ),
      ).toBe(true);
    }
  });

  it('counts the quotes node-pty adds around an executable path with spaces', () => {
    const file = 'C:\\Program Files\\cmd.exe';
    const overhead = `"${file}" /d /s /c ""`.length;
    const longest = 'x'.repeat(limit - overhead);
    expect(() => windowsPtySpec(longest, { comspec: file, env: {} })).not.toThrow();
    expect(() => windowsPtySpec(`${longest}x`, { comspec: file, env: {} })).toThrow(
      /^command must be at most 32766 characters/,
    );
  });
});
