import type { Env, HasExecutable, WrappedCommand } from './types.js';

/** POSIX guarantees a Bourne shell here even when PATH is empty or wrong. */
export const POSIX_FALLBACK_SHELL = '/bin/sh';

/**
 * `<shell> -c <command>`: the shell given, else bash when it is on PATH, else sh (on PATH,
 * else /bin/sh). The command is one argv element, so no quoting is needed or applied.
 */
export function posixShellWrap(
  command: string,
  shell: string | undefined,
  env: Env,
  hasExecutable: HasExecutable,
): WrappedCommand {
  const chosen = shell ?? pickPosixShell(env, hasExecutable);
  return {
    file: chosen,
    args: [...rcFlags(chosen), '-c', command],
    windowsVerbatimArguments: false,
    shell: chosen,
  };
}

// bash sources ~/.bashrc even for `-c` when stdin is a socket and SHLVL is unset ("run by
// rshd"); Node's child stdio pipes are socketpairs, and services and task runners often drop
// SHLVL, so a host's rc file (pyenv, prompts, `echo`s) would run inside every command.
function rcFlags(shell: string): string[] {
  return /(^|\/)bash$/.test(shell) ? ['--norc'] : [];
}

function pickPosixShell(env: Env, hasExecutable: HasExecutable): string {
  if (hasExecutable('bash', env)) return 'bash';
  if (hasExecutable('sh', env)) return 'sh';
  return POSIX_FALLBACK_SHELL;
}
