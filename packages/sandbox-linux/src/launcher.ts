// The argv that runs a target inside bubblewrap: what is mounted where, the namespaces, the
// seccomp filter, and the small in-sandbox forwarder to the host's allow-list proxy.
import { TREE_MARKER_ENV } from '@procmux/core-types';
import type { SandboxPolicy } from './policy.js';

/** Host files of one session's sandbox (its private directory). */
export interface SandboxFiles {
  /** The seccomp program (seccomp.ts), read by bwrap from fd 9. */
  filter: string;
  /** An empty mode-000 file bound over each hidden file. */
  denied: string;
  /** The proxy's unix socket (proxy.ts). */
  proxySocket: string;
  /** The session's private temp dir: writable, TMPDIR. */
  tmp: string;
}

/** Where the forwarder listens inside the sandbox's own network namespace. */
export const PROXY_PORT = 3128;
const PROXY_URL = `http://127.0.0.1:${PROXY_PORT}`;

// The outer shell binds the session's own terminal (when it has one) as /dev/pts/N, so `tty`
// names it and job control works: bwrap's --dev would show it as /dev/console, and a fresh
// devpts has no such node. `[ -t 0 ]` first spares a pipe session the `tty` exec.
// Ctrl-C and Ctrl-\ signal the terminal's whole foreground group, bwrap outside too, and
// its death would end the sandbox: under a terminal bwrap ignores them, the target gets them
// back (env below). Without one nothing sends them to the group (procmux's own signals go to
// the program, signals.ts), so a pipe session spares the trap and the `env` exec (~7-20 ms).
const OUTER = [
  'f=$1; shift',
  'if [ -t 0 ] && t=$(tty 2>/dev/null); then',
  "  trap '' INT QUIT",
  '  exec bwrap --ro-bind / / --dev /dev --tmpfs /dev/pts --dev-bind "$t" "$t" "$@" 9<"$f"',
  'fi',
  'exec bwrap --ro-bind / / --dev /dev "$@" 9<"$f"',
].join('\n');

// Inside, a forwarder relays 127.0.0.1:3128 (where the proxy variables point) to the host's
// proxy socket, so every connection made through the proxy reaches it: let through when
// allowed, refused and told when not, allowed domains or none. It listens before the target
// starts, so the target's first connection finds it: without that a connection made in the
// forwarder's first milliseconds was refused by the kernel and never told (a one-shot `curl`
// to the host's loopback, in 2 of 2 stress runs of the suite at load 7-13).
//
// The forwarder is sandbox-init (native/sandbox-init.c, built static with the package): it
// listens, forks the relay and execs the target, ~2 ms in all. Where it was not built (no C
// compiler at build time, an arch the package was not published with), socat does the job:
// it loads its TLS libraries before it listens (~10 ms here) and a shell polls
// /proc/net/sockstat for its listener, whose TCP `inuse` counts the namespace's hashed
// sockets: none but socat's can exist yet (/proc/net/tcp walks the kernel's whole connection
// table at each open: 2,000 looks took 28.8 s here, sockstat's 1.5 s, under load). If the
// forwarder cannot listen, the target still runs, with nothing to tell its refused
// connections, and its stderr says so first.

/** Which forwarder runs inside: the built helper at `path`, or socat from the session's PATH. */
export type Forwarder = { kind: 'sandbox-init'; path: string } | { kind: 'socat'; bash: string };

/** The line a sandboxed program's stderr starts with when socat ended before it listened. */
export const FORWARDER_DIED =
  'procmux sandbox: socat ended before it listened; a connection this program makes is refused without being told';

/** How sandbox-init's line starts when it could not listen (the reason follows in parentheses). */
export const FORWARDER_NOT_LISTENING = 'procmux sandbox: the proxy forwarder could not listen';

// The host's side of the launch (the outer shell, bwrap) runs with the host's PATH and no
// variable of the program's under its own name: a session's environment is a caller's, a
// model's through a tool argument, and bash outside would source its BASH_ENV and import its
// BASH_FUNC_* functions, find a `bwrap` first on its PATH, the loader would preload its
// LD_PRELOAD into bwrap (each measured: code ran on the host, unconfined). The program's
// variables travel as PROGRAM_ENV_PREFIX + NAME, names nothing outside reads, and the
// forwarder inside gives them their names back before the program starts.

/** The prefix the program's variables carry through the host's side of the launch. */
export const PROGRAM_ENV_PREFIX = 'PROCMUX_SANDBOX_ENV_';

/** Where the launch looks for bash, bwrap and tty when the host has no PATH. */
const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * The launcher's environment: the host's PATH (its absolute directories: the launch runs in the
 * session's cwd, where `.` would find a workspace's `bwrap`) and the program's variables under
 * PROGRAM_ENV_PREFIX (its tree marker left out: the host sets its own, which the forwarder
 * keeps). The runner adds its own variables (the tree marker, the cgroup to join) after.
 */
export function launchEnv(
  programEnv: Readonly<Record<string, string>>,
  hostPath: string | undefined,
): Record<string, string> {
  const absolute = (hostPath ?? '').split(':').filter((dir) => dir.startsWith('/'));
  const env: Record<string, string> = { PATH: absolute.length > 0 ? absolute.join(':') : DEFAULT_PATH };
  for (const [name, value] of Object.entries(programEnv))
    if (name !== TREE_MARKER_ENV) env[PROGRAM_ENV_PREFIX + name] = value;
  return env;
}

// bash, which can read the program's variables from /proc/self/environ and export them under
// their names (a POSIX sh cannot list them); a name no shell can hold (`BASH_FUNC_f%%`, `a-b`)
// goes on through coreutils' env at the exec. The host's variables go first, the tree marker
// stays; the script's own variables are named so no program variable can be one of them.
const P = PROGRAM_ENV_PREFIX;
const SOCAT_INNER = [
  '__pm_names=() __pm_odd=() __pm_drop=()',
  'while IFS= read -r -d "" __pm_kv; do',
  '  case $__pm_kv in',
  `    ${P}*)`,
  `      __pm_kv=\${__pm_kv#${P}}`,
  `      if [[ \${__pm_kv%%=*} =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]]; then __pm_names+=("$__pm_kv")`,
  `      else __pm_odd+=("$__pm_kv") __pm_drop+=(-u "${P}\${__pm_kv%%=*}"); fi ;;`,
  `    ${TREE_MARKER_ENV}=*) ;;`,
  `    *) unset "\${__pm_kv%%=*}" 2>/dev/null ;;`,
  '  esac',
  'done </proc/self/environ',
  `for __pm_kv in "\${__pm_names[@]}"; do unset "${P}\${__pm_kv%%=*}"; export "$__pm_kv"; done`,
  '__pm_s=$1; shift',
  `socat TCP-LISTEN:${PROXY_PORT},bind=127.0.0.1,fork,reuseaddr "UNIX-CONNECT:$__pm_s" </dev/null >/dev/null 2>&1 &`,
  '__pm_p=$! __pm_w=1',
  'while [ $__pm_w = 1 ] && kill -0 $__pm_p 2>/dev/null; do',
  '  while read -r __pm_k _ __pm_u _; do',
  '    [ "$__pm_k" = TCP: ] && [ "$__pm_u" != 0 ] && __pm_w=0',
  '  done </proc/net/sockstat',
  'done',
  `[ $__pm_w = 1 ] && echo "${FORWARDER_DIED}" >&2`,
  // A shell cannot undo an ignored signal it inherited (POSIX); coreutils' env can.
  '__pm_sig=(); [ -t 0 ] && __pm_sig=(--default-signal=INT,QUIT)',
  `if [ \${#__pm_sig[@]} -gt 0 ] || [ \${#__pm_odd[@]} -gt 0 ]; then`,
  `  exec env "\${__pm_sig[@]}" "\${__pm_drop[@]}" "\${__pm_odd[@]}" "$@"`,
  'fi',
  'exec "$@"',
].join('\n');

/** The argv bwrap runs: the forwarder, which then becomes the target. */
function innerArgs(forwarder: Forwarder, proxySocket: string, target: LaunchTarget): string[] {
  if (forwarder.kind === 'sandbox-init')
    return [forwarder.path, proxySocket, String(PROXY_PORT), target.file, ...target.args];
  return [
    forwarder.bash,
    '--norc',
    '-c',
    SOCAT_INNER,
    'procmux-sandbox',
    proxySocket,
    target.file,
    ...target.args,
  ];
}

export interface LaunchTarget {
  file: string;
  args: readonly string[];
}

/** A launch: the file and argv to spawn, and the environment to spawn them with. */
export interface LaunchSpec extends LaunchTarget {
  env: Record<string, string>;
}

/** The bwrap options after `--ro-bind / / --dev /dev` (order matters: later mounts win). */
export function bwrapArgs(
  policy: SandboxPolicy,
  files: SandboxFiles,
  cwd: string,
  kindOf: (path: string) => 'dir' | 'file',
): string[] {
  const args = [
    '--unshare-user',
    '--unshare-pid',
    '--unshare-net',
    '--unshare-ipc',
    '--die-with-parent',
    '--cap-drop',
    'ALL',
    '--proc',
    '/proc',
    // The sandbox's init: nothing of the host's pid 1 is there, and its own is not to be read.
    '--perms',
    '0000',
    '--tmpfs',
    '/proc/1',
  ];
  for (const path of [...policy.write, files.tmp]) args.push('--bind', path, path);
  for (const path of policy.denyRead) {
    if (kindOf(path) === 'dir') args.push('--perms', '0000', '--tmpfs', path);
    else args.push('--ro-bind', files.denied, path);
  }
  args.push('--chdir', cwd, '--seccomp', '9');
  return args;
}

/**
 * What runs the host's side of the launch: sandbox-launch, held by this host (launch-file.ts),
 * with bwrap's absolute path; or a shell running OUTER (bwrap found on the launch's PATH): a
 * bash where there is one, so the supervisor's descriptor-closing prologue (a bash reading
 * BASH_ENV) runs in it instead of exec'ing it, /bin/sh otherwise.
 */
export type Outer = { kind: 'launcher'; path: string; bwrap: string } | { kind: 'shell'; path: string };

/**
 * The file and argv to spawn instead of `target`: outer → bwrap → forwarder → target.
 * bwrap keeps the caller's session (no --new-session): the seccomp filter is what stops
 * TIOCSTI, so the program keeps its controlling terminal.
 */
export function launchArgs(
  target: LaunchTarget,
  policy: SandboxPolicy,
  files: SandboxFiles,
  cwd: string,
  kindOf: (path: string) => 'dir' | 'file',
  forwarder: Forwarder,
  outer: Outer = { kind: 'shell', path: '/bin/sh' },
): LaunchTarget {
  const rest = [
    ...bwrapArgs(policy, files, cwd, kindOf),
    '--',
    ...innerArgs(forwarder, files.proxySocket, target),
  ];
  if (outer.kind === 'launcher') return { file: outer.path, args: [files.filter, outer.bwrap, ...rest] };
  return {
    file: outer.path,
    args: [
      ...(/(^|\/)bash$/.test(outer.path) ? ['--norc'] : []),
      '-c',
      OUTER,
      'procmux-sandbox',
      files.filter,
      ...rest,
    ],
  };
}

/**
 * Defaults a sandboxed program gets unless its own environment says otherwise: npm (and the
 * update-notifier package other CLIs use) checks the registry for a newer version on every run,
 * which the proxy refuses unless the registry is allowed, so every `npm test` ended with
 * `sandbox: connection to registry.npmjs.org refused` for a check nobody asked for; pip does
 * the same (`sandbox: connection to pypi.org refused` after every `pip list`).
 */
export const SANDBOX_DEFAULT_ENV: Readonly<Record<string, string>> = Object.freeze({
  npm_config_update_notifier: 'false',
  NO_UPDATE_NOTIFIER: '1',
  PIP_DISABLE_PIP_VERSION_CHECK: '1',
});

/**
 * The defaults with the one that names the session's private temp dir: npm's cache. npm puts
 * every package it fetches or unpacks there first (a local tarball too), and the user's ~/.npm
 * is read-only inside, so `npm install` failed with EROFS whatever the allow list let through.
 * A cache of the session's own also keeps a sandboxed program from writing what the user's npm
 * later reads.
 */
export function sandboxDefaultEnv(files: Pick<SandboxFiles, 'tmp'>): Record<string, string> {
  return { ...SANDBOX_DEFAULT_ENV, npm_config_cache: `${files.tmp}/npm-cache` };
}

/** Variables every sandboxed process gets: the private TMPDIR and the proxy for every scheme. */
export function sandboxEnv(files: SandboxFiles): Record<string, string> {
  return {
    TMPDIR: files.tmp,
    HTTP_PROXY: PROXY_URL,
    HTTPS_PROXY: PROXY_URL,
    ALL_PROXY: PROXY_URL,
    http_proxy: PROXY_URL,
    https_proxy: PROXY_URL,
    all_proxy: PROXY_URL,
    // Loopback too goes through the proxy: it reaches a server inside the sandbox first
    // (inside.ts), else an allowed host port, else a told refusal.
    NO_PROXY: '',
    no_proxy: '',
  };
}
