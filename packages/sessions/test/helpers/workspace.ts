import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProcmuxErrorCode } from '@procmux/core-types';
import { isProcmuxError } from '@procmux/core-types';
import { expect } from 'vitest';

export function makeWorkspace(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'procmux-sessions-')));
  mkdirSync(join(root, 'sub'));
  return root;
}

/** Asserts that `promise` rejects with a ProcmuxError of `code`; returns it. */
export async function rejectsWith(promise: Promise<unknown>, code: ProcmuxErrorCode): Promise<Error> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  expect(isProcmuxError(caught), `expected ProcmuxError ${code}, got ${String(caught)}`).toBe(true);
  expect((caught as { code: string }).code).toBe(code);
  return caught as Error;
}

export function throwsWith(fn: () => unknown, code: ProcmuxErrorCode): Error {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(isProcmuxError(caught), `expected ProcmuxError ${code}, got ${String(caught)}`).toBe(true);
  expect((caught as { code: string }).code).toBe(code);
  return caught as Error;
}
