import {
  type CheckpointEntry,
  type CheckpointStore,
  type CheckpointWrite,
  checkCheckpointDelete,
  checkCheckpointWrite,
  checkStoreKey,
  checkStoreNamespace,
  fenceConflict,
} from '@procmux/core-types';
import type { Queryable } from './connection.js';
import { NOW_MS, num } from './schema.js';

interface Row {
  key: string;
  data: string;
  version: string;
  fencing_token: string;
  updated_at: string;
}

const toEntry = (row: Row): CheckpointEntry => ({
  key: row.key,
  data: row.data,
  version: num(row.version),
  fencingToken: num(row.fencing_token),
  updatedAt: num(row.updated_at),
});

/**
 * CheckpointStore in PostgreSQL. A compare-and-set is one statement whose WHERE clause holds
 * both checks (version and fence), so the database decides it atomically; a lost write is
 * then read back only to say which check failed.
 */
export class PostgresCheckpointStore implements CheckpointStore {
  readonly #db: Queryable;
  readonly #table: string;

  constructor(db: Queryable, schema: string) {
    this.#db = db;
    this.#table = `"${schema}".checkpoints`;
  }

  async get(namespace: string, key: string): Promise<CheckpointEntry | undefined> {
    checkStoreKey(namespace, key);
    const { rows } = await this.#db.query<Row>(
      `SELECT key, data, version, fencing_token, updated_at FROM ${this.#table} WHERE namespace = $1 AND key = $2`,
      [namespace, key],
    );
    return rows[0] ? toEntry(rows[0]) : undefined;
  }

  async list(namespace: string): Promise<CheckpointEntry[]> {
    checkStoreNamespace(namespace);
    const { rows } = await this.#db.query<Row>(
      `SELECT key, data, version, fencing_token, updated_at FROM ${this.#table} WHERE namespace = $1`,
      [namespace],
    );
    return rows.map(toEntry);
  }

  async compareAndSet(namespace: string, write: CheckpointWrite): Promise<number> {
    checkCheckpointWrite(namespace, write);
    const { key, data, expectedVersion, fencingToken } = write;
    const { rows } =
      expectedVersion === 0
        ? await this.#db.query<{ version: string }>(
            `INSERT INTO ${this.#table} (namespace, key, data, version, fencing_token, updated_at)
             VALUES ($1, $2, $3, 1, $4, ${NOW_MS})
             ON CONFLICT (namespace, key) DO NOTHING RETURNING version`,
            [namespace, key, data, fencingToken],
          )
        : await this.#db.query<{ version: string }>(
            `UPDATE ${this.#table}
             SET data = $3, version = version + 1, fencing_token = $4, updated_at = ${NOW_MS}
             WHERE namespace = $1 AND key = $2 AND version = $5 AND fencing_token <= $4
             RETURNING version`,
            [namespace, key, data, fencingToken, expectedVersion],
          );
    if (rows[0]) return num(rows[0].version);
    const current = await this.get(namespace, key);
    if (current === undefined || current.version !== expectedVersion) {
      throw fenceConflict(key, 'version', { expected: expectedVersion, actual: current?.version ?? null });
    }
    throw fenceConflict(key, 'fence');
  }

  async delete(namespace: string, key: string, expectedVersion: number): Promise<boolean> {
    checkCheckpointDelete(namespace, key, expectedVersion);
    const result = await this.#db.query(
      `DELETE FROM ${this.#table} WHERE namespace = $1 AND key = $2 AND version = $3`,
      [namespace, key, expectedVersion],
    );
    return (result.rowCount ?? 0) > 0;
  }
}
