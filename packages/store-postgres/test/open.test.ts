import { RECOVERY_NAMESPACE } from '@procmux/core-types';
import { invalidOptionMessage } from '@procmux/test-utils';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresRecoveryStore } from '../src/index.js';
import { dropSchemas, freshSchema, PG_SKIP_REASON, PG_URL } from './postgres-env.js';

const NS = RECOVERY_NAMESPACE;

describe('openPostgresRecoveryStore options', () => {
  it('refuses bad options without connecting, and never shows the URL', () => {
    expect(invalidOptionMessage(() => openPostgresRecoveryStore({}))).toMatch(
      /^url or pool must be given, exactly one of the 2/,
    );
    invalidOptionMessage(() => openPostgresRecoveryStore(null as never));
    const secret = 'mysql://root:hunter2@db/app';
    expect(invalidOptionMessage(() => openPostgresRecoveryStore({ url: secret }))).not.toMatch(/hunter2/);
    invalidOptionMessage(() => openPostgresRecoveryStore({ pool: {} as pg.Pool }));
    expect(
      invalidOptionMessage(() => openPostgresRecoveryStore({ url: 'postgres://x/y', schema: 'Bad-Name' })),
    ).toMatch(/lower-case SQL identifier/);
    expect(
      invalidOptionMessage(() => openPostgresRecoveryStore({ url: 'postgres://x/y', maxConnections: 0 })),
    ).toBe('maxConnections must be an integer from 1 to 100 (got 0)');
  });

  it('connects to nothing until the first call', async () => {
    // Port 1 refuses connections: only a call can find out, and it reports the failure.
    const store = openPostgresRecoveryStore({ url: 'postgres://nobody@127.0.0.1:1/none' });
    await expect(store.checkpoints.list(NS)).rejects.toThrow();
    await store.close();
    await store.close();
  });
});

describe.skipIf(PG_URL === undefined)(
  PG_SKIP_REASON ? `postgres server (${PG_SKIP_REASON})` : 'postgres server',
  () => {
    const schemas: string[] = [];
    afterAll(() => dropSchemas(schemas));

    it('creates its schema once even when several stores start at the same moment', async () => {
      const schema = freshSchema();
      schemas.push(schema);
      const stores = Array.from({ length: 4 }, () => openPostgresRecoveryStore({ url: PG_URL!, schema }));
      const leases = await Promise.all(
        stores.map((s, i) => s.leases.acquire(NS, `k${i}`, 'replica', 60_000)),
      );
      const tokens = leases.map((l) => l!.token);
      expect(new Set(tokens).size).toBe(4);
      await Promise.all(stores.map((s) => s.close()));
    });

    it('works on a pool the host owns and leaves it open on close', async () => {
      const schema = freshSchema();
      schemas.push(schema);
      const pool = new pg.Pool({ connectionString: PG_URL!, max: 2 });
      const store = openPostgresRecoveryStore({ pool, schema });
      expect(store.schema).toBe(schema);
      await store.ready();
      await store.checkpoints.compareAndSet(NS, { key: 'k', data: 'd', expectedVersion: 0, fencingToken: 1 });
      await store.close();
      const { rows } = await pool.query(`SELECT data FROM "${schema}".checkpoints WHERE key = 'k'`);
      expect(rows).toEqual([{ data: 'd' }]);
      await pool.end();
    });
  },
);
