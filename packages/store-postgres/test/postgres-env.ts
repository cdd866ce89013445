// Where the tests find PostgreSQL: PROCMUX_PG_URL (`.ci/run` starts a throwaway server with
// tooling/scripts/postgres.sh and exports it). Without it the tests FAIL under CI, and are
// skipped with a visible reason only on a developer's machine.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { it } from 'vitest';

export const PG_URL = process.env.PROCMUX_PG_URL;
export const PG_SKIP_REASON =
  'skipped: PROCMUX_PG_URL is not set (eval "$(tooling/scripts/postgres.sh start)" to run the PostgreSQL tests)';

/** Under CI a missing server is a failing test, never a skip; elsewhere the skip says why. */
export function requirePostgresInCi(): void {
  if (PG_URL !== undefined) return;
  if (process.env.CI) {
    it('has a PostgreSQL server (PROCMUX_PG_URL) under CI', () => {
      throw new Error(
        'PROCMUX_PG_URL is not set under CI: .ci/run must start PostgreSQL (tooling/scripts/postgres.sh start)',
      );
    });
  } else {
    console.warn(`@procmux/store-postgres: PostgreSQL tests ${PG_SKIP_REASON}`);
  }
}

/** A schema name no other test or run uses. */
export const freshSchema = () => `procmux_test_${randomBytes(6).toString('hex')}`;

/** Drops test schemas at the end of a file. */
export async function dropSchemas(schemas: string[]): Promise<void> {
  if (PG_URL === undefined || schemas.length === 0) return;
  const admin = new pg.Pool({ connectionString: PG_URL, max: 1 });
  try {
    for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await admin.end();
  }
}
