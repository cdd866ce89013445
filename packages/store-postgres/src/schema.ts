import { invalidOption } from '@procmux/core-types';

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** Checks a schema name; it is quoted into SQL, so only plain lower-case identifiers pass. */
export function checkSchemaName(schema: unknown): string {
  if (typeof schema !== 'string' || !IDENTIFIER.test(schema)) {
    throw invalidOption('schema', 'a lower-case SQL identifier of 1 to 63 characters: letters, digits, _', {
      value: schema,
    });
  }
  return schema;
}

/** The database's clock in epoch milliseconds: leases expire by one clock for every host. */
export const NOW_MS = '(extract(epoch from clock_timestamp()) * 1000)::bigint';

/** Tables and the token sequence of one schema, created on first use. */
export function schemaStatements(schema: string): string[] {
  const s = `"${schema}"`;
  return [
    `CREATE SCHEMA IF NOT EXISTS ${s}`,
    `CREATE TABLE IF NOT EXISTS ${s}.checkpoints (
       namespace text NOT NULL,
       key text NOT NULL,
       data text NOT NULL,
       version bigint NOT NULL,
       fencing_token bigint NOT NULL,
       updated_at bigint NOT NULL,
       PRIMARY KEY (namespace, key))`,
    `CREATE TABLE IF NOT EXISTS ${s}.leases (
       namespace text NOT NULL,
       key text NOT NULL,
       holder text NOT NULL,
       token bigint NOT NULL,
       expires_at bigint NOT NULL,
       PRIMARY KEY (namespace, key))`,
    `CREATE SEQUENCE IF NOT EXISTS ${s}.fencing_tokens`,
  ];
}

// bigint columns arrive as strings from pg; every value here stays far below 2^53.
export const num = (value: string | number): number => Number(value);
