// Input checks of the output log: each bad value is an ERR_INVALID_OPTION
// naming the option, showing the value and saying what is allowed.
import { describe, ProcmuxError } from '@procmux/core-types';
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
