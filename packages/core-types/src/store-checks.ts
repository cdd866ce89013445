// Argument checks and the conflict error every CheckpointStore / LeaseStore shares, so the
// memory, SQLite and PostgreSQL stores refuse the same calls with the same codes.

import { ProcmuxError } from './errors.js';
import { LEASE_TTL_MS_LIMIT } from './limits.js';
import { invalidOption, resolveLimit } from './option-checks.js';
import type { CheckpointWrite } from './recovery.js';

const MAX_NAME_CHARS = 256;

function checkName(what: string, value: unknown): string {
  if (typeof value !== 'string' || value === '' || value.length > MAX_NAME_CHARS) {
    throw invalidOption(what, `a string of 1 to ${MAX_NAME_CHARS} characters`, {
      value,
      max: MAX_NAME_CHARS,
    });
  }
  return value;
}

function checkCount(what: string, value: unknown, min: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw invalidOption(what, `an integer of at least ${min}`, { value, min });
  }
  return value;
}

/** Checks a namespace (list). */
export function checkStoreNamespace(namespace: unknown): void {
  checkName('namespace', namespace);
}

/** Checks a namespace and key. */
export function checkStoreKey(namespace: unknown, key: unknown): void {
  checkName('namespace', namespace);
  checkName('key', key);
}

/** Checks a compare-and-set call; the data must be a string (stores keep it verbatim). */
export function checkCheckpointWrite(namespace: unknown, write: CheckpointWrite): void {
  if (typeof write !== 'object' || write === null) {
    throw invalidOption('write', 'an object { key, data, expectedVersion, fencingToken }', { value: write });
  }
  checkStoreKey(namespace, write.key);
  if (typeof write.data !== 'string') {
    throw invalidOption('data', 'a string', { value: write.data });
  }
  checkCount('expectedVersion', write.expectedVersion, 0);
  checkCount('fencingToken', write.fencingToken, 0);
}

/** Checks a delete call. */
export function checkCheckpointDelete(namespace: unknown, key: unknown, expectedVersion: unknown): void {
  checkStoreKey(namespace, key);
  checkCount('expectedVersion', expectedVersion, 1);
}

/** Checks a lease call; `ttlMs` (acquire, renew) is 1 to LEASE_TTL_MS_LIMIT.hard. */
export function checkLeaseCall(
  namespace: unknown,
  key: unknown,
  holder: unknown,
  extra: { token?: unknown; ttlMs?: unknown } = {},
): void {
  checkStoreKey(namespace, key);
  checkName('holder', holder);
  if ('token' in extra) checkCount('token', extra.token, 0);
  // resolveLimit maps undefined to the default; a store call must say its TTL.
  if ('ttlMs' in extra) resolveLimit('ttlMs', extra.ttlMs ?? null, LEASE_TTL_MS_LIMIT);
}

/**
 * The error a store throws when a compare-and-set or a lease call loses: `version` (someone
 * wrote since the caller read, or the key exists/is gone), `fence` (a newer lease holder wrote),
 * `lease` (the lease was taken over or released).
 */
export function fenceConflict(
  key: string,
  conflict: 'version' | 'fence' | 'lease',
  facts: { expected?: number; actual?: number | null } = {},
): ProcmuxError {
  const message = {
    version: `checkpoint ${key} is not at version ${facts.expected ?? '?'} (it is at ${facts.actual ?? 'none'}); read it again`,
    fence: `checkpoint ${key} was written under a newer fencing token; this writer's lease is stale`,
    lease: `the lease on ${key} is no longer held under this token; it was taken over or released`,
  }[conflict];
  return new ProcmuxError('ERR_RECOVERY_FENCE', message, { details: { key, conflict, ...facts } });
}

/**
 * The compare-and-set rule every checkpoint store applies to the entry it holds (undefined:
 * none): the write must name the entry's version, and its fencing token must not be older
 * than the entry's. Returns the version the write makes; throws ERR_RECOVERY_FENCE otherwise.
 */
export function checkCompareAndSet(
  write: CheckpointWrite,
  current: { version: number; fencingToken: number } | undefined,
): number {
  const actual = current?.version ?? 0;
  if (actual !== write.expectedVersion) {
    throw fenceConflict(write.key, 'version', {
      expected: write.expectedVersion,
      actual: current?.version ?? null,
    });
  }
  if (current && current.fencingToken > write.fencingToken) throw fenceConflict(write.key, 'fence');
  return actual + 1;
}
