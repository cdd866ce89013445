export { SqliteCheckpointStore } from './checkpoints.js';
export { SqliteLeaseStore } from './leases.js';
export {
  DEFAULT_SQLITE_FILE,
  openSqliteRecoveryStore,
  type SqliteRecoveryStore,
  type SqliteRecoveryStoreOptions,
} from './open.js';
