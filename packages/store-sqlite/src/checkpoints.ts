import {
  type CheckpointEntry,
  type CheckpointStore,
  type CheckpointWrite,
  checkCheckpointDelete,
  checkCheckpointWrite,
  checkCompareAndSet,
  checkStoreKey,
  checkStoreNamespace,
} from '@procmux/core-types';
import type { Database } from 'better-sqlite3';
import type { CheckpointRow } from './schema.js';

const toEntry = (row: CheckpointRow): CheckpointEntry => ({
  key: row.key,
  data: row.data,
  version: row.version,
  fencingToken: row.fencing_token,
  updatedAt: row.updated_at,
});

/** CheckpointStore on one SQLite file; a compare-and-set is one IMMEDIATE transaction. */
export class SqliteCheckpointStore implements CheckpointStore {
  readonly #db: Database;
  readonly #now: () => number;
  readonly #cas: (namespace: string, write: CheckpointWrite) => number;

  constructor(db: Database, now: () => number) {
    this.#db = db;
    this.#now = now;
    const select = db.prepare<[string, string], CheckpointRow>(
      'SELECT key, data, version, fencing_token, updated_at FROM procmux_checkpoints WHERE namespace = ? AND key = ?',
    );
    const insert = db.prepare(
      'INSERT INTO procmux_checkpoints (namespace, key, data, version, fencing_token, updated_at) VALUES (?, ?, ?, 1, ?, ?)',
    );
    const update = db.prepare(
      'UPDATE procmux_checkpoints SET data = ?, version = version + 1, fencing_token = ?, updated_at = ? WHERE namespace = ? AND key = ?',
    );
    // IMMEDIATE takes the write lock before reading, so the check and the write are one step
    // for every process on the file.
    const cas = db.transaction((namespace: string, write: CheckpointWrite): number => {
      const row = select.get(namespace, write.key);
      const version = checkCompareAndSet(
        write,
        row ? { version: row.version, fencingToken: row.fencing_token } : undefined,
      );
      if (row) update.run(write.data, write.fencingToken, this.#now(), namespace, write.key);
      else insert.run(namespace, write.key, write.data, write.fencingToken, this.#now());
      return version;
    });
    this.#cas = (namespace, write) => cas.immediate(namespace, write);
  }

  async get(namespace: string, key: string): Promise<CheckpointEntry | undefined> {
    checkStoreKey(namespace, key);
    const row = this.#db
      .prepare<[string, string], CheckpointRow>(
        'SELECT key, data, version, fencing_token, updated_at FROM procmux_checkpoints WHERE namespace = ? AND key = ?',
      )
      .get(namespace, key);
    return row ? toEntry(row) : undefined;
  }

  async list(namespace: string): Promise<CheckpointEntry[]> {
    checkStoreNamespace(namespace);
    return this.#db
      .prepare<[string], CheckpointRow>(
        'SELECT key, data, version, fencing_token, updated_at FROM procmux_checkpoints WHERE namespace = ?',
      )
      .all(namespace)
      .map(toEntry);
  }

  async compareAndSet(namespace: string, write: CheckpointWrite): Promise<number> {
    checkCheckpointWrite(namespace, write);
    return this.#cas(namespace, write);
  }

  async delete(namespace: string, key: string, expectedVersion: number): Promise<boolean> {
    checkCheckpointDelete(namespace, key, expectedVersion);
    const result = this.#db
      .prepare('DELETE FROM procmux_checkpoints WHERE namespace = ? AND key = ? AND version = ?')
      .run(namespace, key, expectedVersion);
    return result.changes > 0;
  }
}
