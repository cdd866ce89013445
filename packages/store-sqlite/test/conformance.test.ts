import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runReplicaCrashSuite, runStoreConformance } from '@procmux/sessions/conformance';
import { testTmpdir } from '@procmux/test-utils';
import { describe } from 'vitest';
import { openSqliteRecoveryStore } from '../src/index.js';

const dir = mkdtempSync(join(testTmpdir(), 'procmux-sqlite-'));
let files = 0;

runStoreConformance('sqlite', async () => {
  files += 1;
  const store = openSqliteRecoveryStore({ path: join(dir, `store-${files}.sqlite`) });
  return { checkpoints: store.checkpoints, leases: store.leases, close: () => store.close() };
});

describe('sqlite replicas', () => {
  runReplicaCrashSuite('two processes on one SQLite file', {
    storesModule: fileURLToPath(new URL('./replica-stores.mjs', import.meta.url)),
    builtPackages: ['core-types', 'sessions', 'store-sqlite'],
    env: () => ({}),
    inspect: async (workspace) => {
      const store = openSqliteRecoveryStore({ workspace });
      return { checkpoints: store.checkpoints, leases: store.leases, close: () => store.close() };
    },
  });
});
