// `--store` and `--lease-ttl`: where session records and leases live, and how long a lease
// lasts unrenewed (the longest a crashed host's sessions wait for another host).
import { resolve } from 'node:path';
import { invalidOption } from '@procmux/core-types';
import { CliUsageError, cliInteger } from './cli-usage.js';

/** A PostgreSQL store several hosts share, or an SQLite file (the default: in the state dir). */
export type StoreRequest = { kind: 'postgres'; url: string } | { kind: 'sqlite'; path: string };

/** `--lease-ttl` bounds, in seconds: a lease unrenewed this long lets another host adopt. */
export const LEASE_TTL_SECONDS = { default: 15, min: 1, max: 300 } as const;

const POSTGRES_URL = /^postgres(ql)?:\/\//;

/** Reads --store: a postgres:// URL, else a path (resolved against `cwd`) to an SQLite file. */
export function parseStore(value: string | undefined, cwd: string): StoreRequest | undefined {
  if (value === undefined) return undefined;
  if (value === '') {
    throw CliUsageError.refusal(
      invalidOption('--store', 'a postgres:// URL or the path of an SQLite file', { value }),
    );
  }
  // The URL may carry a password: it is kept, never echoed.
  if (POSTGRES_URL.test(value)) return { kind: 'postgres', url: value };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    throw CliUsageError.refusal(
      invalidOption('--store', 'a postgres:// or postgresql:// URL, or the path of an SQLite file'),
    );
  }
  return { kind: 'sqlite', path: resolve(cwd, value) };
}

/** Reads --lease-ttl SECONDS (1 to 300), in milliseconds; the default when absent. */
export function parseLeaseTtl(value: string | undefined): number {
  if (value === undefined) return LEASE_TTL_SECONDS.default * 1000;
  return (
    cliInteger(
      '--lease-ttl',
      value,
      { min: LEASE_TTL_SECONDS.min, max: LEASE_TTL_SECONDS.max },
      `a whole number of seconds from ${LEASE_TTL_SECONDS.min} to ${LEASE_TTL_SECONDS.max}`,
    ) * 1000
  );
}
