import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import {
  type CheckpointStore,
  exactlyOne,
  integerOption,
  invalidOption,
  type LeaseStore,
  nonEmptyString,
} from '@procmux/core-types';
import Database from 'better-sqlite3';
import { SqliteCheckpointStore } from './checkpoints.js';
import { SqliteLeaseStore } from './leases.js';
import { SCHEMA } from './schema.js';

/** Where a workspace keeps its store: `<workspace>/.procmux/recovery.sqlite`. */
export const DEFAULT_SQLITE_FILE = join('.procmux', 'recovery.sqlite');
const MAX_BUSY_TIMEOUT_MS = 60_000;

export interface SqliteRecoveryStoreOptions {
  /** The database file (created with its directory when missing). */
  path?: string;
  /** A workspace root instead of `path`: the file is `<workspace>/.procmux/recovery.sqlite`. */
  workspace?: string;
  /** How long a call waits for another process's write lock: 5000 ms, 0 to 60000. */
  busyTimeoutMs?: number;
  /** The store's clock for lease expiry and update times (tests); Date.now by default. */
  now?: () => number;
}

/** One open SQLite file holding checkpoints and leases. */
export interface SqliteRecoveryStore {
  /** Absolute path of the database file. */
  readonly path: string;
  readonly checkpoints: CheckpointStore;
  readonly leases: LeaseStore;
  /** Closes the file; later calls reject. Calling it twice is harmless. */
  close(): void;
}

/**
 * Opens (creating when missing) the SQLite store of a workspace or of a given file. Several
 * processes on one host may open the same file: it runs in WAL mode, every write is an
 * IMMEDIATE transaction, and a busy file is waited on for `busyTimeoutMs`.
 *
 * @example
 * const store = openSqliteRecoveryStore({ workspace: process.cwd() });
 * const sessions = createProcessSessions({ cwd: process.cwd(), ownerId: 'host-1', ...store });
 */
export function openSqliteRecoveryStore(options: SqliteRecoveryStoreOptions): SqliteRecoveryStore {
  if (typeof options !== 'object' || options === null) {
    throw invalidOption('options', 'an object { workspace } or { path } (openSqliteRecoveryStore)', {
      value: options,
    });
  }
  exactlyOne({ ...options }, ['workspace', 'path']);
  // A NUL cannot reach the file system, so it is refused here rather than by fs.
  const path = nonEmptyString('path', options.path);
  const workspace = nonEmptyString('workspace', options.workspace);
  const busyTimeoutMs = integerOption('busyTimeoutMs', options.busyTimeoutMs, {
    min: 0,
    max: MAX_BUSY_TIMEOUT_MS,
    default: 5_000,
  });
  const file = resolve(path ?? join(workspace!, DEFAULT_SQLITE_FILE));
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file, { timeout: busyTimeoutMs });
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.transaction(() => db.exec(SCHEMA)).immediate();
  } catch (error) {
    db.close();
    throw error;
  }
  const now = options.now ?? Date.now;
  return {
    path: file,
    checkpoints: new SqliteCheckpointStore(db, now),
    leases: new SqliteLeaseStore(db, now),
    close() {
      if (db.open) db.close();
    },
  };
}
