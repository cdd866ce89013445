// A logger is the caller's code, called from procmux's clean-up paths (a run's end, a cgroup
// that could not be removed): one that throws must not stop that clean-up half way.
import { invalidOption } from './option-checks.js';
import type { Logger } from './process.js';

/**
 * The same logger, whose `warn` never throws: a warning its `warn` threw on, or whose returned
 * promise rejected (an async logger), goes to the console with what it threw, so it is neither
 * lost nor able to end the clean-up that told it, nor the host (an unhandled rejection).
 */
export function containLogger(logger: Logger): Logger {
  return {
    warn(message, fields) {
      const told = (thrown: unknown) =>
        console.warn(message, {
          ...fields,
          loggerThrew: thrown instanceof Error ? thrown.message : String(thrown),
        });
      try {
        const result: unknown = logger.warn(message, fields);
        if (isThenable(result)) result.then(undefined, told);
      } catch (thrown) {
        told(thrown);
      }
    },
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * A `logger` option: undefined gives `fallback` (as is); an object with a `warn` function is
 * taken, contained (containLogger); anything else is refused (ERR_INVALID_OPTION).
 */
export function loggerOption(value: unknown, fallback: Logger): Logger {
  if (value === undefined) return fallback;
  const logger = value as Partial<Logger> | null;
  if (typeof logger === 'object' && logger !== null && typeof logger.warn === 'function')
    return containLogger(logger as Logger);
  throw invalidOption('logger', 'an object with a warn(message, fields) function', { value });
}
