import { describe, ProcmuxError } from '@procmux/core-types';

export { resolveGraceMs, validateOptionsObject as validateOptions } from '@procmux/core-types';

// Node's process.kill takes an int32; anything larger cannot name a process.
const MAX_PID = 0x7fff_ffff;

/** The pid a tree kill may act on: a positive integer that is not this process. */
export function validatePid(pid: unknown, selfPid: number): number {
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid < 1 || pid > MAX_PID) {
    throw new ProcmuxError('ERR_INVALID_OPTION', `pid must be a positive integer (got ${describe(pid)})`, {
      details: { option: 'pid' },
    });
  }
  if (pid === selfPid) {
    throw new ProcmuxError('ERR_INVALID_OPTION', `pid must not be this process's own pid (got ${pid})`, {
      details: { option: 'pid' },
    });
  }
  return pid;
}
