// Which host pid is the program of a pid-namespace run: the waiter's pid is the run's, and a
// signal sent to it would be blocked (INT, TERM) or end the namespace without the program
// seeing it. The program is the waiter's child that is not the namespace's init.

/** Reads a /proc file's text; undefined when it cannot be read (gone). */
export type ProcRead = (path: string) => string | undefined;

/**
 * The host pid of the program under the waiter `hostPid`: its child whose innermost pid (the
 * last of /proc/PID/status NSpid) is not 1. Undefined once the program is gone.
 */
export function namespacedProgramPid(hostPid: number, read: ProcRead): number | undefined {
  const children = read(`/proc/${hostPid}/task/${hostPid}/children`)?.trim().split(/\s+/) ?? [];
  for (const child of children) {
    if (!/^\d+$/.test(child)) continue;
    const nspid = /^NSpid:\s+(.+)$/m
      .exec(read(`/proc/${child}/status`) ?? '')?.[1]
      ?.trim()
      .split(/\s+/);
    if (nspid !== undefined && nspid.length > 1 && nspid[nspid.length - 1] !== '1') return Number(child);
  }
  return undefined;
}
