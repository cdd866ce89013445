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

/**
 * A chunk's UTF-8 bytes, when given with it: a Uint8Array of a length a UTF-8 encoding of the
 * chunk can have (1 to 3 bytes per UTF-16 unit). Their content is the caller's word: checking
 * it would cost the encode the bytes are there to save.
 */
export function assertChunkBytes(chunk: string, value: unknown): asserts value is Uint8Array | undefined {
  if (value === undefined) return;
  const min = chunk.length;
  const max = chunk.length * 3;
  if (!(value instanceof Uint8Array) || value.length < min || value.length > max) {
    throw invalidOption(
      'bytes',
      `the chunk's UTF-8 encoding: a Uint8Array of ${min} to ${max} bytes for a chunk of ${chunk.length} UTF-16 units`,
      { value: value instanceof Uint8Array ? `Uint8Array(${value.length})` : value },
    );
  }
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
