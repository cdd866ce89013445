// The store the crash-test replicas open: PostgreSQL at PROCMUX_PG_URL, from dist/.
import { openPostgresRecoveryStore } from '@procmux/store-postgres';

export async function openStores() {
  const store = openPostgresRecoveryStore({
    url: process.env.PROCMUX_PG_URL,
    schema: process.env.PROCMUX_REPLICA_PG_SCHEMA,
  });
  return { checkpoints: store.checkpoints, leases: store.leases, close: () => store.close() };
}
