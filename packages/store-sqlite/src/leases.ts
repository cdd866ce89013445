import { checkLeaseCall, fenceConflict, type Lease, type LeaseStore } from '@procmux/core-types';
import type { Database } from 'better-sqlite3';
import type { LeaseRow } from './schema.js';

/**
 * LeaseStore on one SQLite file. Tokens come from one counter row bumped inside the same
 * IMMEDIATE transaction as the lease write, so they only grow, across keys and processes.
 */
export class SqliteLeaseStore implements LeaseStore {
  readonly #db: Database;
  readonly #now: () => number;
  readonly #acquire: (namespace: string, key: string, holder: string, ttlMs: number) => Lease | undefined;

  constructor(db: Database, now: () => number) {
    this.#db = db;
    this.#now = now;
    const select = db.prepare<[string, string], LeaseRow>(
      'SELECT key, holder, token, expires_at FROM procmux_leases WHERE namespace = ? AND key = ?',
    );
    const nextToken = db.prepare<[], { last: number }>(
      'UPDATE procmux_fencing_tokens SET last = last + 1 WHERE id = 1 RETURNING last',
    );
    const upsert = db.prepare(
      `INSERT INTO procmux_leases (namespace, key, holder, token, expires_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (namespace, key) DO UPDATE SET holder = excluded.holder, token = excluded.token, expires_at = excluded.expires_at`,
    );
    const acquire = db.transaction((namespace: string, key: string, holder: string, ttlMs: number) => {
      const now = this.#now();
      const row = select.get(namespace, key);
      if (row && row.holder !== holder && row.expires_at > now) return undefined;
      const token = nextToken.get()!.last;
      const lease: Lease = { key, holder, token, expiresAt: now + ttlMs };
      upsert.run(namespace, key, holder, token, lease.expiresAt);
      return lease;
    });
    this.#acquire = (...args) => acquire.immediate(...args);
  }

  async acquire(namespace: string, key: string, holder: string, ttlMs: number): Promise<Lease | undefined> {
    checkLeaseCall(namespace, key, holder, { ttlMs });
    return this.#acquire(namespace, key, holder, ttlMs);
  }

  async renew(namespace: string, key: string, holder: string, token: number, ttlMs: number): Promise<Lease> {
    checkLeaseCall(namespace, key, holder, { token, ttlMs });
    const row = this.#db
      .prepare<[number, string, string, string, number], LeaseRow>(
        `UPDATE procmux_leases SET expires_at = ? WHERE namespace = ? AND key = ? AND holder = ? AND token = ?
         RETURNING key, holder, token, expires_at`,
      )
      .get(this.#now() + ttlMs, namespace, key, holder, token);
    if (!row) throw fenceConflict(key, 'lease');
    return { key: row.key, holder: row.holder, token: row.token, expiresAt: row.expires_at };
  }

  async release(namespace: string, key: string, holder: string, token: number): Promise<boolean> {
    checkLeaseCall(namespace, key, holder, { token });
    const result = this.#db
      .prepare('DELETE FROM procmux_leases WHERE namespace = ? AND key = ? AND holder = ? AND token = ?')
      .run(namespace, key, holder, token);
    return result.changes > 0;
  }
}
