// Signals for the program inside: the host's pid is bwrap's, and bwrap either ignores a
// signal (INT, QUIT) or dies of it and takes the sandbox with it. The program is bwrap's
// grandchild (bwrap → the namespace's init → the forwarder, exec'd into the target),
// and a host pid can signal it: it lives in a child pid namespace.

/** How the host's process tree is read: a pid's children (from /proc/PID/task/PID/children). */
export type ChildrenOf = (pid: number) => readonly number[];

/** A process's name (from /proc/PID/comm), undefined once gone. */
export type NameOf = (pid: number) => string | undefined;

/** How far below a session's pid bwrap may be (a tmux pane: its sh, the launcher's shell). */
const MAX_WRAPPERS = 4;

/**
 * The host pid of the sandboxed program whose bwrap is `hostPid` or a first descendant of it
 * (a tmux pane's process is a shell that starts the launcher), or undefined once gone.
 */
export function sandboxedProgramPid(
  hostPid: number,
  childrenOf: ChildrenOf,
  nameOf: NameOf = () => 'bwrap',
): number | undefined {
  let bwrap: number | undefined = hostPid;
  for (let depth = 0; bwrap !== undefined && nameOf(bwrap) !== 'bwrap'; depth++)
    bwrap = depth < MAX_WRAPPERS ? childrenOf(bwrap)[0] : undefined;
  const init = bwrap === undefined ? undefined : childrenOf(bwrap)[0];
  return init === undefined ? undefined : childrenOf(init)[0];
}

/**
 * bwrap reports a program killed by signal N as exit code 128 + N (as bash does). A code that
 * matches a signal this session sent is that signal; any other code is the program's own.
 */
export function exitOfSignalled(
  exitCode: number | null,
  sent: ReadonlySet<number>,
): { exitCode: number | null; signal: number | null } {
  if (exitCode !== null && exitCode > 128 && sent.has(exitCode - 128))
    return { exitCode: null, signal: exitCode - 128 };
  return { exitCode, signal: null };
}
