import { describe, ProcmuxError } from '@procmux/core-types';

export { resolveGraceMs, validateOptionsObject as validateOptions } from '@procmux/core-types';

// kill(2) takes an int; anything larger cannot name a process.
const MAX_PID = 0x7fff_ffff;

/**
 * The pid a tree kill may act on: a positive integer that is neither init nor this process
 * (killing either would take the host down with the tree).
 */
export function validatePid(pid: unknown, selfPid: number): number {
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid < 1 || pid > MAX_PID) {
    throw new ProcmuxError('ERR_INVALID_OPTION', `pid must be a positive integer (got ${describe(pid)})`, {
      details: { option: 'pid' },
    });
  }
  if (pid === 1 || pid === selfPid) {
    throw new ProcmuxError(
      'ERR_INVALID_OPTION',
      `pid must not be 1 (init) or this process's own pid ${selfPid} (got ${pid})`,
      { details: { option: 'pid' } },
    );
  }
  return pid;
}

/** An explicit tree marker: a non-empty string that can be an environment value. */
export function validateMarker(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0 || value.includes('\0')) {
    throw new ProcmuxError(
      'ERR_INVALID_OPTION',
      `marker must be a non-empty string without NUL (got ${describe(value)})`,
      { details: { option: 'marker' } },
    );
  }
  return value;
}
