// Input checks shared by the log and the registry: each bad value is an ERR_INVALID_OPTION
// naming the option, showing the value and saying what is allowed.
import { describe, ProcmuxError } from '@procmux/core-types';
import type { SessionExit } from './status.js';
import type { OutputStream } from './stream-runs.js';

export function invalidOption(
  option: string,
  message: string,
  details: Record<string, unknown> = {},
): ProcmuxError {
  return new ProcmuxError('ERR_INVALID_OPTION', message, { details: { option, ...details } });
}

export function assertStream(value: unknown): asserts value is OutputStream {
  if (value !== 'stdout' && value !== 'stderr') {
    throw invalidOption('stream', `stream must be 'stdout' or 'stderr' (got ${describe(value)})`);
  }
}

/** A read cursor: an integer from 0 to the bytes written so far (default 0). */
export function resolveCursor(value: unknown, totalBytes: number): number {
  if (value === undefined) return 0;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > totalBytes) {
    throw invalidOption(
      'cursor',
      `cursor must be an integer from 0 to ${totalBytes} (the bytes written so far) (got ${describe(value)})`,
      { min: 0, max: totalBytes },
    );
  }
  return value;
}

export function assertExit(exit: SessionExit): void {
  if (typeof exit !== 'object' || exit === null) {
    throw invalidOption('exit', `exit must be an object with exitCode and signal (got ${describe(exit)})`);
  }
  if (exit.exitCode !== null && !Number.isInteger(exit.exitCode)) {
    throw invalidOption('exitCode', `exitCode must be an integer or null (got ${describe(exit.exitCode)})`);
  }
  if (exit.signal !== null && (typeof exit.signal !== 'string' || !exit.signal.startsWith('SIG'))) {
    throw invalidOption(
      'signal',
      `signal must be a signal name such as 'SIGTERM', or null (got ${describe(exit.signal)})`,
    );
  }
  if (exit.endedAt !== undefined && !Number.isFinite(exit.endedAt)) {
    throw invalidOption('endedAt', `endedAt must be epoch milliseconds (got ${describe(exit.endedAt)})`);
  }
}
