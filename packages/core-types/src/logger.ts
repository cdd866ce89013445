// A logger is the caller's code, called from procmux's clean-up paths (a run's end, a cgroup
// that could not be removed): one that throws must not stop that clean-up half way.
import { invalidOption } from './option-checks.js';
import type { Logger } from './process.js';

/**
 * The same logger, whose `warn` never throws: a warning its `warn` threw on goes to the console
 * with what it threw, so it is neither lost nor able to end the clean-up that told it.
 */
export function containLogger(logger: Logger): Logger {
  return {
    warn(message, fields) {
      try {
        logger.warn(message, fields);
      } catch (thrown) {
        console.warn(message, {
          ...fields,
          loggerThrew: thrown instanceof Error ? thrown.message : String(thrown),
        });
      }
    },
  };
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
