// The store the crash-test replicas open: the workspace's default SQLite file, from dist/.
import { openSqliteRecoveryStore } from '@procmux/store-sqlite';

export async function openStores() {
  const store = openSqliteRecoveryStore({ workspace: process.env.PROCMUX_REPLICA_WORKSPACE });
  return { checkpoints: store.checkpoints, leases: store.leases, close: async () => store.close() };
}
