import { fileURLToPath } from 'node:url';
import { runReplicaCrashSuite, runStoreConformance } from '@procmux/sessions/conformance';
import { afterAll, describe } from 'vitest';
import { openPostgresRecoveryStore } from '../src/index.js';
import { dropSchemas, freshSchema, PG_SKIP_REASON, PG_URL } from './postgres-env.js';

const schemas: string[] = [];
const open = (schema: string) => {
  const store = openPostgresRecoveryStore({ url: PG_URL!, schema });
  return { checkpoints: store.checkpoints, leases: store.leases, close: () => store.close() };
};

describe.skipIf(PG_URL === undefined)(PG_SKIP_REASON ? `postgres (${PG_SKIP_REASON})` : 'postgres', () => {
  afterAll(() => dropSchemas(schemas));

  runStoreConformance('postgres', async () => {
    const schema = freshSchema();
    schemas.push(schema);
    return open(schema);
  });

  describe('postgres replicas', () => {
    const crashSchema = freshSchema();
    schemas.push(crashSchema);
    runReplicaCrashSuite('two processes on one PostgreSQL', {
      storesModule: fileURLToPath(new URL('./replica-stores.mjs', import.meta.url)),
      builtPackages: ['core-types', 'sessions', 'store-postgres'],
      env: () => ({ PROCMUX_PG_URL: PG_URL!, PROCMUX_REPLICA_PG_SCHEMA: crashSchema }),
      inspect: async () => open(crashSchema),
    });
  });
});
