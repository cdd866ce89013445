// The shared way to assert a ProcmuxError: the assertion runs whether or not anything throws,
// unlike an `expect` inside a `catch`, which passes when nothing is thrown at all.
import { expect } from 'vitest';

// The brand core-types stamps on every ProcmuxError (read here without importing core-types).
const BRAND = Symbol.for('procmux.error');

function check(caught: unknown, threw: boolean, code: string): Error & { code: string; details?: unknown } {
  expect(threw, `expected a ProcmuxError ${code}, but nothing was thrown`).toBe(true);
  const branded =
    typeof caught === 'object' && caught !== null && (caught as Record<symbol, unknown>)[BRAND] === true;
  expect(branded, `expected a ProcmuxError ${code}, got ${String(caught)}`).toBe(true);
  expect((caught as { code: string }).code).toBe(code);
  return caught as Error & { code: string; details?: unknown };
}

/** Asserts that `fn()` throws a ProcmuxError with `code`; returns the error for more checks. */
export function throwsWith(fn: () => unknown, code: string): Error & { code: string; details?: unknown } {
  try {
    fn();
  } catch (error) {
    return check(error, true, code);
  }
  return check(undefined, false, code);
}

/** Asserts that `promise` rejects with a ProcmuxError with `code`; returns the error. */
export async function rejectsWith(
  promise: Promise<unknown>,
  code: string,
): Promise<Error & { code: string; details?: unknown }> {
  try {
    await promise;
  } catch (error) {
    return check(error, true, code);
  }
  return check(undefined, false, code);
}

/** The message of the ERR_INVALID_OPTION that `fn()` must throw: the common check of an option test. */
export function invalidOptionMessage(fn: () => unknown): string {
  return throwsWith(fn, 'ERR_INVALID_OPTION').message;
}

/** What `fn()` throws, whatever it is; fails the test when it throws nothing. */
export function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  expect.fail('expected a throw, but nothing was thrown');
}

/** What `promise` rejects with, whatever it is; fails the test when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  expect.fail('expected a rejection, but the promise resolved');
}

/**
 * A tool reply without the usage an ended exec's state line carries where the host has
 * cgroups (`Process exited with code 0. (cpu 0.21 s, peak memory 112 MiB)`): figures that
 * differ run to run, for tests that compare the rest of the text exactly.
 */
export function withoutUsage(text: string): string {
  return text.replace(/(Process [^\n]*\.) \(cpu \d+\.\d\d s(?:, peak memory [\d.]+ [MG]iB)?\)$/, '$1');
}
