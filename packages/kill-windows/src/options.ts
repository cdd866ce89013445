import { DEFAULT_KILL_GRACE_MS, describe, MAX_KILL_GRACE_MS, ProcmuxError } from '@procmux/core-types';

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

/**
 * graceMs as the design states it: undefined → 3000; a number is clamped to 0..60000; NaN or
 * a non-number is an error.
 */
export function resolveGraceMs(value: unknown): number {
  if (value === undefined) return DEFAULT_KILL_GRACE_MS;
  if (typeof value !== 'number' || Number.isNaN(value)) {
    throw new ProcmuxError(
      'ERR_INVALID_OPTION',
      `graceMs must be a number of milliseconds, clamped to 0..${MAX_KILL_GRACE_MS} (got ${describe(value)})`,
      { details: { option: 'graceMs', min: 0, max: MAX_KILL_GRACE_MS } },
    );
  }
  return Math.min(Math.max(value, 0), MAX_KILL_GRACE_MS);
}

/** The options object itself: absent, or an object. */
export function validateOptions<T extends object>(options: unknown): Partial<T> {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new ProcmuxError('ERR_INVALID_OPTION', `options must be an object (got ${describe(options)})`, {
      details: { option: 'options' },
    });
  }
  return options as Partial<T>;
}
