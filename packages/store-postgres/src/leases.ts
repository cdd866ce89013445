import { checkLeaseCall, fenceConflict, type Lease, type LeaseStore } from '@procmux/core-types';
import type { Queryable } from './connection.js';
import { NOW_MS, num } from './schema.js';

interface Row {
  key: string;
  holder: string;
  token: string;
  expires_at: string;
}

const toLease = (row: Row): Lease => ({
  key: row.key,
  holder: row.holder,
  token: num(row.token),
  expiresAt: num(row.expires_at),
});

/**
 * LeaseStore in PostgreSQL. Each call is one statement: acquire is an upsert that takes the
 * row only when it is free, expired (by the database's clock) or the caller's, with a token
 * from a sequence, so tokens only grow whichever host asks.
 */
export class PostgresLeaseStore implements LeaseStore {
  readonly #db: Queryable;
  readonly #table: string;
  readonly #sequence: string;

  constructor(db: Queryable, schema: string) {
    this.#db = db;
    this.#table = `"${schema}".leases`;
    this.#sequence = `"${schema}".fencing_tokens`;
  }

  async acquire(namespace: string, key: string, holder: string, ttlMs: number): Promise<Lease | undefined> {
    checkLeaseCall(namespace, key, holder, { ttlMs });
    const { rows } = await this.#db.query<Row>(
      `INSERT INTO ${this.#table} AS l (namespace, key, holder, token, expires_at)
       VALUES ($1, $2, $3, nextval('${this.#sequence}'), ${NOW_MS} + $4::bigint)
       ON CONFLICT (namespace, key) DO UPDATE
         SET holder = excluded.holder, token = excluded.token, expires_at = excluded.expires_at
         WHERE l.holder = excluded.holder OR l.expires_at <= ${NOW_MS}
       RETURNING key, holder, token, expires_at`,
      [namespace, key, holder, ttlMs],
    );
    return rows[0] ? toLease(rows[0]) : undefined;
  }

  async renew(namespace: string, key: string, holder: string, token: number, ttlMs: number): Promise<Lease> {
    checkLeaseCall(namespace, key, holder, { token, ttlMs });
    const { rows } = await this.#db.query<Row>(
      `UPDATE ${this.#table} SET expires_at = ${NOW_MS} + $5::bigint
       WHERE namespace = $1 AND key = $2 AND holder = $3 AND token = $4
       RETURNING key, holder, token, expires_at`,
      [namespace, key, holder, token, ttlMs],
    );
    if (!rows[0]) throw fenceConflict(key, 'lease');
    return toLease(rows[0]);
  }

  async release(namespace: string, key: string, holder: string, token: number): Promise<boolean> {
    checkLeaseCall(namespace, key, holder, { token });
    const result = await this.#db.query(
      `DELETE FROM ${this.#table} WHERE namespace = $1 AND key = $2 AND holder = $3 AND token = $4`,
      [namespace, key, holder, token],
    );
    return (result.rowCount ?? 0) > 0;
  }
}
