import { isProcmuxError, ProcmuxError } from '@procmux/core-types';

/**
 * Runs a store call; a ProcmuxError passes through, anything else becomes
 * ERR_RECOVERY_UNKNOWN with a generic message saying what was being done (the store's own text
 * stays in `cause`: it may name hosts or credentials).
 */
export async function storeCall<T>(action: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (cause) {
    if (isProcmuxError(cause)) throw cause;
    throw new ProcmuxError(
      'ERR_RECOVERY_UNKNOWN',
      `the durable store failed to ${action}; the durable state is unknown`,
      { cause },
    );
  }
}
