import { assertCommand, assertShellOption } from './command.js';
import { hasExecutableOnPath } from './path-lookup.js';
import { posixShellWrap } from './posix.js';
import type { Env, HasExecutable, WrappedCommand } from './types.js';
import { type WindowsPtySpec, windowsPtyCommandLine, windowsShellWrap } from './windows.js';
import { requestedWindowsShell, resolveShell, windowsEnvValue } from './windows-shell.js';

export interface ShellWrapOptions {
  /** Which platform to wrap for; `process.platform` when omitted. Only 'win32' means Windows. */
  platform?: NodeJS.Platform;
  /**
   * POSIX: the shell to run (name or path), bash or sh when omitted. Windows: 'cmd',
   * 'powershell' or 'pwsh' (or a path to one), `PROCMUX_WINDOWS_SHELL` when omitted;
   * an unknown name falls back to cmd.
   */
  shell?: string;
  /** The environment the child will get: its PATH (POSIX), PROCMUX_WINDOWS_SHELL and ComSpec (Windows). */
  env?: Env;
  /** Windows: the cmd executable; the environment's ComSpec, else 'cmd.exe', when omitted. */
  comspec?: string;
  /** POSIX effect: whether `name` is on PATH. Defaults to a real search of `env.PATH`. */
  hasExecutable?: HasExecutable;
}

/**
 * Wraps a command string for the platform's shell, ready for `child_process.spawn`.
 *
 * POSIX: `bash -c <command>` (`sh -c` where bash is not on PATH). Windows: `cmd /d /s /c
 * "<command>"` with `windowsVerbatimArguments: true`, or PowerShell/pwsh with `-NoLogo
 * -NoProfile -NonInteractive -EncodedCommand <UTF-16LE base64>`. The command reaches the
 * shell exactly as written; quoting is the shell's, as if typed at its prompt.
 *
 * Throws ERR_INVALID_OPTION for an empty or whitespace-only command, a NUL character, a
 * multi-line command for cmd, or a Windows command line over 32,766 characters.
 *
 * @example
 * const { file, args, windowsVerbatimArguments } = shellWrap('echo "$HOME" | wc -c');
 * spawn(file, args, { windowsVerbatimArguments });
 */
export function shellWrap(command: string, options: ShellWrapOptions = {}): WrappedCommand {
  assertCommand(command);
  assertShellOption(options.shell);
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  if (platform !== 'win32') {
    return posixShellWrap(command, options.shell, env, options.hasExecutable ?? hasExecutableOnPath);
  }
  return windowsShellWrap(command, windowsChoice(options.shell, options.comspec, env));
}

export interface WindowsPtySpecOptions {
  /** 'cmd', 'powershell' or 'pwsh' (or a path to one); `PROCMUX_WINDOWS_SHELL` when omitted. */
  shell?: string;
  /** The cmd executable; the environment's ComSpec, else 'cmd.exe', when omitted. */
  comspec?: string;
  /** Where PROCMUX_WINDOWS_SHELL and ComSpec are read; `process.env` when omitted. */
  env?: Env;
}

/**
 * The ConPTY spawn for a command on Windows: `file` and the verbatim argument tail
 * `commandLine`, to pass to node-pty as `spawn(file, commandLine, …)`. node-pty takes a
 * string `args` as-is on Windows, where an array would be re-quoted with backslash escapes
 * that cmd does not understand. cmd gets `/d /s /c "<command>"`; PowerShell/pwsh get
 * `-NoLogo -NoProfile -EncodedCommand <base64>` (interactive: prompts may be answered).
 *
 * @example
 * windowsPtySpec('echo "a b" & ver', { shell: 'cmd', comspec: 'C:\\Windows\\system32\\cmd.exe' });
 * // { file: 'C:\\Windows\\system32\\cmd.exe', commandLine: '/d /s /c "echo "a b" & ver"', shell: 'cmd' }
 */
export function windowsPtySpec(command: string, options: WindowsPtySpecOptions = {}): WindowsPtySpec {
  assertCommand(command);
  assertShellOption(options.shell);
  return windowsPtyCommandLine(
    command,
    windowsChoice(options.shell, options.comspec, options.env ?? process.env),
  );
}

function windowsChoice(shell: string | undefined, comspec: string | undefined, env: Env) {
  const requested = shell ?? requestedWindowsShell(env);
  return {
    shell: resolveShell(requested),
    requested,
    comspec: comspec ?? windowsEnvValue(env, 'ComSpec'),
  };
}
