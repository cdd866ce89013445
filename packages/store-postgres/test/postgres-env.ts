// Where the tests find PostgreSQL: PROCMUX_PG_URL (`.ci/run` starts a throwaway server with
// tooling/scripts/postgres.sh and exports it). Without it the tests FAIL under CI, and are
// skipped with a visible reason only on a developer's machine.
import { randomBytes } from 'node:crypto';
import { requireTool } from '@procmux/test-utils';
import pg from 'pg';

export const PG_URL = process.env.PROCMUX_PG_URL;

/**
 * Undefined when a server is there; else the reason the PostgreSQL tests skip. Under CI on
 * Linux a missing server fails the file instead (requireTool), never skips it.
 */
export const PG_SKIP_REASON = requireTool('postgres');

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
