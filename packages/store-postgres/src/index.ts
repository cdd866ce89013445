export { PostgresCheckpointStore } from './checkpoints.js';
export { type Queryable, SchemaConnection } from './connection.js';
export { PostgresLeaseStore } from './leases.js';
export {
  DEFAULT_POSTGRES_SCHEMA,
  openPostgresRecoveryStore,
  type PostgresRecoveryStore,
  type PostgresRecoveryStoreOptions,
} from './open.js';
