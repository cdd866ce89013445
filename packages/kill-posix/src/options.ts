import { DEFAULT_KILL_GRACE_MS, describe, MAX_KILL_GRACE_MS, ProcmuxError } from '@procmux/core-types';

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

/**
 * graceMs as the design states it: undefined → 3000; a number is clamped to 0..60000 (an
 * infinite grace would make the kill unbounded); NaN or a non-number is an error.
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
