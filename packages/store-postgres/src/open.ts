import {
  type CheckpointStore,
  exactlyOne,
  integerOption,
  invalidOption,
  type LeaseStore,
} from '@procmux/core-types';
import pg from 'pg';
import { PostgresCheckpointStore } from './checkpoints.js';
import { SchemaConnection } from './connection.js';
import { PostgresLeaseStore } from './leases.js';
import { checkSchemaName } from './schema.js';

export const DEFAULT_POSTGRES_SCHEMA = 'procmux';
const MAX_CONNECTIONS = 100;

export interface PostgresRecoveryStoreOptions {
  /** `postgres://user:password@host:port/database`; or pass `pool`. */
  url?: string;
  /** A pool the host owns (close() leaves it open); instead of `url`. */
  pool?: pg.Pool;
  /** Schema holding the tables, created on first use: 'procmux' by default. */
  schema?: string;
  /** Connections of the pool made from `url`: 4, 1 to 100. */
  maxConnections?: number;
}

/** The checkpoint and lease stores of one PostgreSQL schema. */
export interface PostgresRecoveryStore {
  readonly schema: string;
  readonly checkpoints: CheckpointStore;
  readonly leases: LeaseStore;
  /** Creates the schema now instead of on first use (to fail early on a bad connection). */
  ready(): Promise<void>;
  /** Ends the pool made from `url` (a host's own pool stays open). Calling it twice is harmless. */
  close(): Promise<void>;
}

/**
 * Opens the PostgreSQL store several host replicas share. Nothing connects until the first
 * call (or ready()); the schema is created then. Compare-and-set and fencing are decided by
 * the database in single statements, and lease expiry uses the database's clock, so hosts
 * with skewed clocks still agree.
 *
 * @example
 * const store = openPostgresRecoveryStore({ url: process.env.DATABASE_URL });
 * const sessions = createProcessSessions({ cwd, ownerId: hostname(), ...store });
 */
export function openPostgresRecoveryStore(options: PostgresRecoveryStoreOptions): PostgresRecoveryStore {
  if (typeof options !== 'object' || options === null) {
    throw invalidOption('options', 'an object { url } or { pool } (openPostgresRecoveryStore)', {
      value: options,
    });
  }
  const { url, pool: hostPool } = options;
  exactlyOne({ url, pool: hostPool }, ['url', 'pool']);
  // The URL may hold a password: the message never shows it.
  if (url !== undefined && (typeof url !== 'string' || !/^postgres(ql)?:\/\//.test(url))) {
    throw invalidOption('url', 'a postgres:// or postgresql:// connection URL');
  }
  if (hostPool !== undefined && typeof hostPool?.query !== 'function') {
    throw invalidOption('pool', 'a pg Pool', { value: hostPool });
  }
  const schema = checkSchemaName(options.schema ?? DEFAULT_POSTGRES_SCHEMA);
  const max = integerOption('maxConnections', options.maxConnections, {
    min: 1,
    max: MAX_CONNECTIONS,
    default: 4,
  });
  let pool = hostPool;
  if (!pool) {
    pool = new pg.Pool({ connectionString: url, max });
    // An idle connection that drops (server restart) must not crash the host; the next query
    // reconnects or fails with its own error.
    pool.on('error', () => {});
  }
  const connection = new SchemaConnection(pool, schema);
  let closed = false;
  return {
    schema,
    checkpoints: new PostgresCheckpointStore(connection, schema),
    leases: new PostgresLeaseStore(connection, schema),
    ready: () => connection.ready(),
    async close() {
      if (closed || hostPool) return;
      closed = true;
      await pool.end();
    },
  };
}
