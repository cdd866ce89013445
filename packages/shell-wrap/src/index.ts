export {
  CALLER_BASH_ENV,
  CLOSE_FDS_SCRIPT,
  type CloseInheritedOptions,
  closeInheritedDescriptors,
  type ExecSpec,
  isBashCommand,
  registerSelfContainedLauncher,
} from './descriptors.js';
export { findExecutable } from './find-executable.js';
export { CGROUP_JOIN_ENV, JOB_CONTROL_ENV, SH_JOIN_CGROUP } from './join-cgroup.js';
export { hasExecutableOnPath } from './path-lookup.js';
export { POSIX_FALLBACK_SHELL } from './posix.js';
export { encodePowerShellCommand, POWERSHELL_PIPE_FLAGS, POWERSHELL_PTY_FLAGS } from './powershell.js';
export {
  type ShellWrapOptions,
  shellWrap,
  type WindowsPtySpecOptions,
  windowsPtySpec,
} from './shell-wrap.js';
export type { Env, HasExecutable, WindowsShell, WrappedCommand } from './types.js';
export { WINDOWS_COMMAND_LINE_LIMIT, type WindowsPtySpec } from './windows.js';
export {
  defaultWindowsShell,
  resolveShell,
  WINDOWS_SHELL_ENV,
  WINDOWS_SHELL_ENV_ALIAS,
  WINDOWS_SHELLS,
} from './windows-shell.js';
