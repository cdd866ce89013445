// Starting a child so that it keeps only the descriptors it is given (its stdio, its own
// terminal). Node cannot set FD_CLOEXEC, node-pty 1.1 leaves every PTY master inheritable
// (microsoft/node-pty#657), and libuv closes nothing but close-on-exec descriptors when it
// spawns: so the child itself closes every descriptor above 2 before the program runs.
import { fileURLToPath } from 'node:url';
import { SH_JOIN_CGROUP } from './join-cgroup.js';
import { hasExecutableOnPath } from './path-lookup.js';
import type { HasExecutable } from './types.js';

/** The bash file that closes inherited descriptors; sourced through BASH_ENV. */
export const CLOSE_FDS_SCRIPT: string = fileURLToPath(
  new URL('../close-inherited-fds.bash', import.meta.url),
);

/** Where a caller's own BASH_ENV is kept while ours runs (restored and sourced after it). */
export const CALLER_BASH_ENV = 'PROCMUX_CALLER_BASH_ENV';

/** A program, its arguments and its whole environment, ready for exec. */
export interface ExecSpec {
  file: string;
  args: string[];
  env: Record<string, string>;
}

export interface CloseInheritedOptions {
  /** Only POSIX closes anything: Windows hands a child only the handles it is given. */
  platform?: NodeJS.Platform;
  /** Whether `name` is on the child's PATH (default: a real search of env.PATH). */
  hasExecutable?: HasExecutable;
  /** The bash file sourced through BASH_ENV (default: the one shipped with this package). */
  script?: string;
}

// Launchers that close what they inherited and join PROCMUX_CGROUP_JOIN themselves (the OS
// sandbox's sandbox-launch, run from a path only this process can name): run as given, which
// spares each sandboxed start a bash.
const selfContained = new Set<string>();

/**
 * Has closeInheritedDescriptors run `file` (this exact path) as given: a launcher that itself
 * closes every descriptor above stderr and joins the cgroups PROCMUX_CGROUP_JOIN names before
 * it starts anything. For a file a caller cannot change (sandbox-linux's held launcher).
 */
export function registerSelfContainedLauncher(file: string): void {
  selfContained.add(file);
}

// Without bash, `sh` (dash) can only name descriptors 0-9 in a redirection.
const SH_CLOSE_LOW_FDS = `${SH_JOIN_CGROUP}; exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-; exec "$0" "$@"`;

/**
 * Rewrites `spec` so the child closes every inherited descriptor above stderr before the
 * program runs, keeping the program's pid, argv and exit status as they were:
 * - a non-interactive bash (`bash [--norc] -c …`, what shellWrap makes) gets the closing
 *   through BASH_ENV, and `--norc` first if it had none: no extra process, the command
 *   string untouched, so bash still execs its last command and a signal death is reported
 *   as the program's own;
 * - anything else runs as `bash --norc -c 'exec "$0" "$@"' file args…` with the same
 *   BASH_ENV: one extra exec (bash replaces itself with the program);
 * - without bash, `sh` closes descriptors 3-9 only (the README says so);
 * - a launcher registered with registerSelfContainedLauncher does it all itself: unchanged.
 * Windows: returned unchanged.
 *
 * @example
 * closeInheritedDescriptors({ file: 'python3', args: ['-i'], env: { PATH: '/usr/bin' } });
 * // { file: 'bash', args: ['--norc', '-c', 'exec "$0" "$@"', 'python3', '-i'],
 * //   env: { PATH: '/usr/bin', BASH_ENV: '…/close-inherited-fds.bash' } }
 */
export function closeInheritedDescriptors(spec: ExecSpec, options: CloseInheritedOptions = {}): ExecSpec {
  const platform = options.platform ?? process.platform;
  if (platform === 'win32' || selfContained.has(spec.file)) return spec;
  const env = withBashEnv(spec.env, options.script ?? CLOSE_FDS_SCRIPT);
  if (isBashCommand(spec.file, spec.args)) return { file: spec.file, args: withNoRc(spec.args), env };
  const hasExecutable = options.hasExecutable ?? hasExecutableOnPath;
  if (hasExecutable('bash', spec.env)) {
    return { file: 'bash', args: ['--norc', '-c', 'exec "$0" "$@"', spec.file, ...spec.args], env };
  }
  return { file: '/bin/sh', args: ['-c', SH_CLOSE_LOW_FDS, spec.file, ...spec.args], env: spec.env };
}

/** True for a bash that runs a `-c` string: it reads BASH_ENV before the command. */
export function isBashCommand(file: string, args: readonly string[]): boolean {
  if (!/(^|\/)bash$/.test(file)) return false;
  // Options come before the command string; `-c` may be bundled (`-ec`). An interactive
  // (-i) or POSIX-mode bash ignores BASH_ENV, so those take the exec wrapper.
  for (const arg of args) {
    if (arg === '--norc' || arg === '--noprofile') continue;
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(arg)) return !arg.includes('i');
    if (!arg.startsWith('-')) return false;
  }
  return false;
}

// A bash whose stdin is a socket (Node's child pipes are socketpairs) and whose environment has
// no SHLVL takes itself for a command run by rshd: it sources ~/.bashrc and then skips
// BASH_ENV, so the closing (and the cgroup join) never ran and the rc file did (pyenv's setup
// here: 140-280 ms more per start). `--norc` turns that rule off; BASH_ENV is read as usual.
function withNoRc(args: string[]): string[] {
  for (const arg of args) {
    if (arg === '--norc') return args;
    if (!arg.startsWith('--')) break;
  }
  return ['--norc', ...args];
}

function withBashEnv(env: Readonly<Record<string, string>>, script: string): Record<string, string> {
  const out: Record<string, string> = { ...env };
  if (env.BASH_ENV !== undefined) out[CALLER_BASH_ENV] = env.BASH_ENV;
  out.BASH_ENV = script;
  return out;
}
