import { invalidOption } from '@procmux/core-types';
import { encodePowerShellCommand, POWERSHELL_PIPE_FLAGS, POWERSHELL_PTY_FLAGS } from './powershell.js';
import type { WindowsShell, WrappedCommand } from './types.js';
import { windowsShellFile } from './windows-shell.js';

/** CreateProcess takes at most 32,767 UTF-16 units, the terminating NUL included. */
export const WINDOWS_COMMAND_LINE_LIMIT = 32_767;

/** The resolved shell and its executable for one Windows spawn. */
export interface WindowsShellChoice {
  shell: WindowsShell;
  /** The `shell` option as the caller gave it, kept when it is a path. */
  requested: string | undefined;
  comspec: string | undefined;
}

/**
 * cmd: `/d /s /c "<command>"` with the command verbatim. /s makes cmd strip exactly the
 * outer pair of quotes and run the rest as typed, so inner quotes, `%VAR%`, carets and
 * `& | < >` mean what they mean at a cmd prompt. /d skips AutoRun registry commands.
 */
export function cmdArgs(command: string): string[] {
  return ['/d', '/s', '/c', `"${command}"`];
}

function powershellArgs(command: string, flags: readonly string[]): string[] {
  return [...flags, '-EncodedCommand', encodePowerShellCommand(command)];
}

/** The argv for a pipe spawn through child_process on Windows. */
export function windowsShellWrap(command: string, choice: WindowsShellChoice): WrappedCommand {
  const file = windowsShellFile(choice.shell, choice.requested, choice.comspec);
  if (choice.shell === 'cmd') {
    assertCmdSingleLine(command);
    const args = cmdArgs(command);
    assertFitsCommandLine(file, args.join(' '), choice.shell);
    return { file, args, windowsVerbatimArguments: true, shell: 'cmd' };
  }
  const args = powershellArgs(command, POWERSHELL_PIPE_FLAGS);
  assertFitsCommandLine(file, args.join(' '), choice.shell);
  return { file, args, windowsVerbatimArguments: false, shell: choice.shell };
}

/** What node-pty's ConPTY spawn needs: the executable and the verbatim argument tail. */
export interface WindowsPtySpec {
  file: string;
  /** Everything after the executable, passed to node-pty as a string so it is not re-quoted. */
  commandLine: string;
  shell: WindowsShell;
}

/** The ConPTY spawn spec for a command, built like `windowsShellWrap` but as one string. */
export function windowsPtyCommandLine(command: string, choice: WindowsShellChoice): WindowsPtySpec {
  const file = windowsShellFile(choice.shell, choice.requested, choice.comspec);
  if (choice.shell === 'cmd') assertCmdSingleLine(command);
  const args = choice.shell === 'cmd' ? cmdArgs(command) : powershellArgs(command, POWERSHELL_PTY_FLAGS);
  const commandLine = args.join(' ');
  assertFitsCommandLine(file, commandLine, choice.shell);
  return { file, commandLine, shell: choice.shell };
}

// cmd ends its /c command at the first line break and exits 0, so everything after it would
// be dropped without a word (aaif-goose/goose#11259); no escape carries a newline through.
function assertCmdSingleLine(command: string): void {
  if (!/[\r\n]/.test(command)) return;
  throw invalidOption(
    'command',
    "a single line for cmd, which runs only up to the first line break (join the lines with '&' or '&&', or use shell 'powershell' or 'pwsh')",
  );
}

function assertFitsCommandLine(file: string, tail: string, shell: WindowsShell): void {
  // node-pty and libuv quote an executable path that contains a space.
  const fileLength = /\s/.test(file) ? file.length + 2 : file.length;
  const length = fileLength + 1 + tail.length;
  if (length < WINDOWS_COMMAND_LINE_LIMIT) return;
  const max = WINDOWS_COMMAND_LINE_LIMIT - 1;
  throw invalidOption(
    'command',
    `at most ${max} characters once wrapped for ${shell}, a Windows command line (it is ${length} characters; ` +
      `PowerShell's encoding makes a command about 2.7 times longer)`,
    { max },
  );
}
