/** Every stable error code a caller can act on. Codes never change meaning once published. */
export const ERROR_CODES = [
  'ERR_PROCESS_POLICY',
  'ERR_PROCESS_OWNERSHIP',
  'ERR_PROCESS_STATE',
  'ERR_PROCESS_LIMIT',
  'ERR_PROCESS_NOT_FOUND',
  'ERR_PROCESS_PTY_UNSUPPORTED',
  'ERR_PROCESS_PTY_BACKEND',
  'ERR_PROCESS_PTY_LIMIT',
  'ERR_PROCESS_UNSUPPORTED',
  'ERR_PROCESS_SPAWN',
  'ERR_INVALID_KEY',
  'ERR_INVALID_OPTION',
  'ERR_RECOVERY_UNSUPPORTED',
  'ERR_RECOVERY_LIMIT',
  'ERR_RECOVERY_OWNERSHIP',
  'ERR_RECOVERY_FENCE',
  'ERR_RECOVERY_UNKNOWN',
  'ERR_RECOVERY_UNTRUSTED',
  'ERR_RECOVERY_TIMEOUT',
  // The backend could not look the process up now (its host did not answer): left for a later try.
  'ERR_RECOVERY_UNREACHABLE',
  // A failure that is not a ProcmuxError (a bug, a host callback that threw), as the tools
  // report it: never thrown by procmux itself.
  'ERR_INTERNAL',
] as const;

export type ProcmuxErrorCode = (typeof ERROR_CODES)[number];

// Symbol.for is shared by every realm and every duplicated install of this package, so the
// brand survives where `instanceof` does not (vm contexts, two copies in node_modules).
const BRAND = Symbol.for('procmux.error');

export interface ProcmuxErrorOptions {
  cause?: unknown;
  /** Structured, non-secret facts for hosts (the offending option's name, a limit, a pid). */
  details?: Readonly<Record<string, unknown>>;
}

/**
 * The one error class of procmux. `code` is stable; `message` says what was wrong and what
 * is allowed; `cause` carries the underlying error where one exists.
 *
 * @example
 * throw new ProcmuxError('ERR_INVALID_OPTION', 'maxSessions must be an integer from 1 to 32 (got 0)');
 */
export class ProcmuxError extends Error {
  readonly code: ProcmuxErrorCode;
  readonly details: Readonly<Record<string, unknown>> | undefined;
  readonly [BRAND] = true;

  constructor(code: ProcmuxErrorCode, message: string, options: ProcmuxErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ProcmuxError';
    this.code = code;
    this.details = options.details;
  }
}

/** True for a ProcmuxError from any realm or any copy of this package. */
export function isProcmuxError(value: unknown, code?: ProcmuxErrorCode): value is ProcmuxError {
  if (typeof value !== 'object' || value === null) return false;
  if ((value as { [BRAND]?: unknown })[BRAND] !== true) return false;
  return code === undefined || (value as { code?: unknown }).code === code;
}

/** The error shape an aborted spawn rejects with, matching the DOM's AbortError. */
export function abortError(reason?: unknown): Error {
  const error = new Error('The operation was aborted', reason === undefined ? undefined : { cause: reason });
  error.name = 'AbortError';
  return error;
}
