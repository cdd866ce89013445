import type { Pool, QueryResult, QueryResultRow } from 'pg';
import { schemaStatements } from './schema.js';

/** What the stores need of a connection. */
export interface Queryable {
  query<R extends QueryResultRow = QueryResultRow>(text: string, values?: unknown[]): Promise<QueryResult<R>>;
}

/**
 * A pool that creates its schema on first use. Creation runs in one transaction under an
 * advisory lock, because concurrent `CREATE ... IF NOT EXISTS` from two hosts can still
 * collide in PostgreSQL's catalogs.
 */
export class SchemaConnection implements Queryable {
  readonly #pool: Pool;
  readonly #schema: string;
  #ready: Promise<void> | undefined;

  constructor(pool: Pool, schema: string) {
    this.#pool = pool;
    this.#schema = schema;
  }

  async query<R extends QueryResultRow = QueryResultRow>(
    text: string,
    values?: unknown[],
  ): Promise<QueryResult<R>> {
    await this.ready();
    return this.#pool.query<R>(text, values);
  }

  /** Creates the schema once; a failed attempt is retried by the next call. */
  ready(): Promise<void> {
    this.#ready ??= this.#create().catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  async #create(): Promise<void> {
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`procmux.recovery:${this.#schema}`]);
      for (const statement of schemaStatements(this.#schema)) await client.query(statement);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }
}
