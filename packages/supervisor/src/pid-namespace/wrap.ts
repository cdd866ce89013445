// The argv that runs a target in a pid namespace of its own: when the namespace's init dies,
// the kernel SIGKILLs every process in it, a daemon that left the process group and cleared
// its environment included. Pure, so the argv is unit-tested anywhere.
//
//   unshare --pid sh HOST  (host namespace; its children are born in the new one)
//     ├─ setpriv --pdeathsig KILL sh HOLD   pid 1: the namespace's init, dies with HOST
//     └─ exec unshare --fork → the program  pid 2, a child of HOST: exact exit status
//
// The program is not the init: an init ignores every signal it has no handler for (Ctrl-C
// would not stop `sleep`, SIGTERM would not end it) and would inherit every orphan. HOST is
// `unshare --fork`: it blocks SIGINT and SIGTERM while the program runs (Ctrl-C reaches the
// program, not the waiter) and dies of the signal that killed the program, so the exit code
// or signal is the program's own. HOST keeps the session, process group and controlling
// terminal it was started with (no setsid), so job control and the terminal's foreground
// group work as without the namespace.
//
// util-linux's `unshare --fork` (2.38 here) cannot re-raise SIGKILL: when the program dies of
// it, unshare prints "sigprocmask unblock failed" and exits 1, so a kill read as exit 1. With a
// status file, unshare's own stderr goes there (the program keeps the real one, through an
// inner sh that marks the file once the program is about to run); waiter-status.ts reads it.

/** What a pid-namespace run needs: whether a user namespace is needed to make it (non-root). */
export interface PidNamespaceSpec {
  /** true: `unshare --user --map-current-user` too (a non-root host: same uid inside). */
  userNamespace: boolean;
}

export interface NamespaceTarget {
  file: string;
  args: string[];
}

/** argv[0] of the init inside (what `ps` shows), to find it among the waiter's children. */
export const PID_NAMESPACE_INIT = 'procmux-pidns-init';

/**
 * What the init runs between reaps: a duration no one types (about 24.8 days), so the init's
 * own sleep is told apart from what a run left behind (see hold.ts).
 */
export const INIT_HOLD_COMMAND = 'sleep 2147483';

// The init: refuses to outlive a waiter that died before the parent-death signal was set
// (its ppid, read from the host's /proc, is no longer HOST's pid), then sleeps, reaping the
// orphans the kernel hands it (sh waits for any child).
const HOLD = [
  'read -r _ _ _ p _ </proc/self/stat',
  '[ "$p" = "$1" ] || exit 0',
  `while :; do ${INIT_HOLD_COMMAND}; done`,
].join('\n');

const INIT = `setpriv --pdeathsig KILL -- /bin/sh -c '${HOLD}' ${PID_NAMESPACE_INIT} $$ </dev/null >/dev/null 2>&1 &`;

const HOST = [INIT, 'exec unshare --fork -- "$@"'].join('\n');

/** What the inner sh writes to the status file before it execs the program. */
export const PROGRAM_STARTED_MARK = '.';

// $1 is the status file: unshare's stderr; the program gets the real one back as fd 3.
const RUN = `printf ${PROGRAM_STARTED_MARK} >&2; exec 2>&3 3>&-; exec "$@"`;
const HOST_WITH_STATUS = [
  INIT,
  's=$1; shift',
  `exec unshare --fork -- /bin/sh -c '${RUN}' procmux-pidns-run "$@" 3>&2 2>"$s"`,
].join('\n');

/**
 * Wraps a program (file and args, a shell already resolved) to run in a pid namespace. With
 * `statusFile`, unshare's own complaints go to that file instead of the program's stderr (see
 * readWaiterExit); without it (a tmux pane) they share the program's stderr.
 *
 * @example
 * pidNamespaceTarget({ file: 'sleep', args: ['5'] }, { userNamespace: false });
 * // { file: 'unshare', args: ['--pid', '--', '/bin/sh', '-c', '…', 'procmux-pidns', 'sleep', '5'] }
 */
export function pidNamespaceTarget(
  target: NamespaceTarget,
  spec: PidNamespaceSpec,
  statusFile?: string,
): NamespaceTarget {
  const user = spec.userNamespace ? ['--user', '--map-current-user'] : [];
  const host =
    statusFile === undefined ? [HOST, 'procmux-pidns'] : [HOST_WITH_STATUS, 'procmux-pidns', statusFile];
  return {
    file: 'unshare',
    args: [...user, '--pid', '--', '/bin/sh', '-c', ...host, target.file, ...target.args],
  };
}
