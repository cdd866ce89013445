// Which host pid is the program of a pid-namespace run: the waiter's pid is the run's, and a
// signal sent to it would be blocked (INT, TERM) or end the namespace without the program
// seeing it. The program is the waiter's child that is not the namespace's init.

/** Reads a /proc file's text; undefined when it cannot be read (gone). */
export type ProcRead = (path: string) => string | undefined;

/** How far below `hostPid` the waiter may be (a tmux pane's process runs it through a shell). */
const MAX_DEPTH = 4;

/**
 * The host pid of the program under the waiter at or below `hostPid`: the first child, going
 * down the tree, whose innermost pid (the last of /proc/PID/status NSpid) is not 1 while its
 * own namespace differs from its parent's. Undefined when there is none (gone, or no namespace).
 */
export function namespacedProgramPid(hostPid: number, read: ProcRead, depth = 0): number | undefined {
  const children = read(`/proc/${hostPid}/task/${hostPid}/children`)?.trim().split(/\s+/) ?? [];
  const inHost: number[] = [];
  for (const child of children) {
    if (!/^\d+$/.test(child)) continue;
    const nspid = /^NSpid:\s+(.+)$/m
      .exec(read(`/proc/${child}/status`) ?? '')?.[1]
      ?.trim()
      .split(/\s+/);
    if (nspid === undefined) continue;
    if (nspid.length > 1 && nspid[nspid.length - 1] !== '1') return Number(child);
    if (nspid.length === 1) inHost.push(Number(child));
  }
  if (depth >= MAX_DEPTH) return undefined;
  for (const child of inHost) {
    const found = namespacedProgramPid(child, read, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
