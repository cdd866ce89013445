// Input checks of the output log, through the option toolkit of @procmux/core-types: each bad
// value is an ERR_INVALID_OPTION naming the option, showing the value and saying what is allowed.
import { invalidOption, oneOf } from '@procmux/core-types';
import type { OutputStream } from './stream-runs.js';

export function assertStream(value: unknown): asserts value is OutputStream {
  oneOf<OutputStream>('stream', value, ['stdout', 'stderr'], { required: true });
}

/** A chunk of output: any string (an empty one adds nothing). */
export function assertChunk(value: unknown): asserts value is string {
  if (typeof value !== 'string') throw invalidOption('chunk', 'a string', { value });
}

/** A read cursor: an integer from 0 to the bytes written so far (default 0). */
export function resolveCursor(value: unknown, totalBytes: number): number {
  if (value === undefined) return 0;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > totalBytes) {
    throw invalidOption('cursor', `an integer from 0 to ${totalBytes} (the bytes written so far)`, {
      value,
      min: 0,
      max: totalBytes,
    });
  }
  return value;
}
