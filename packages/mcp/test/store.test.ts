// `procmux mcp --store` and `--lease-ttl`: the arguments, and the built CLI writing its records
// and leases to a real PostgreSQL (a database of its own per run) or to a given SQLite file.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { RECOVERY_NAMESPACE } from '@procmux/core-types';
import { openPostgresRecoveryStore } from '@procmux/store-postgres';
import { assertNoLeakedProcesses, requireTool, waitFor } from '@procmux/test-utils';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCliArgs } from '../src/args.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const PG_URL = process.env.PROCMUX_PG_URL;

describe('--store and --lease-ttl arguments', () => {
  it('reads a postgres URL as a shared store and anything else as an SQLite path', () => {
    const url = 'postgres://me:secret@db.example.org:5432/procmux';
    expect(parseCliArgs(['mcp', '--store', url], '/w')).toMatchObject({
      store: { kind: 'postgres', url },
      leaseTtlMs: 15_000,
    });
    expect(parseCliArgs(['mcp', '--store', 'rec.sqlite', '--lease-ttl', '3'], '/w')).toMatchObject({
      store: { kind: 'sqlite', path: '/w/rec.sqlite' },
      leaseTtlMs: 3_000,
    });
    expect(parseCliArgs(['mcp'], '/w')).not.toHaveProperty('store');
  });

  it('refuses a lease TTL outside 1-300 s and a store it cannot open, naming what is allowed', () => {
    for (const bad of ['0', '301', '2.5', 'ten']) {
      expect(() => parseCliArgs(['mcp', '--lease-ttl', bad], '/w')).toThrow(
        `--lease-ttl must be a whole number of seconds from 1 to 300 (got "${bad}")`,
      );
    }
    expect(() => parseCliArgs(['mcp', '--store', ''], '/w')).toThrow(/--store must be a postgres:\/\/ URL/);
    const other = () => parseCliArgs(['mcp', '--store', 'mysql://u:hunter2@h/db'], '/w');
    expect(other).toThrow(/--store must be a postgres:\/\/ or postgresql:\/\/ URL, or the path/);
    expect(other).not.toThrow(/hunter2/);
    expect(() => parseCliArgs(['sessions', 'prune', '--store', 'x'], '/w')).toThrow(
      /--store applies to procmux mcp/,
    );
  });
});

async function serve(args: string[]) {
  let stderr = '';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...args],
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'procmux-store', version: '1.0.0' });
  await client.connect(transport);
  return { client, pid: transport.pid!, stderr: () => stderr };
}

async function exec(client: Client, args: Record<string, unknown>) {
  const result = (await client.callTool({ name: 'exec', arguments: args })) as CallToolResult;
  // biome-ignore lint/suspicious/noExplicitAny: structured result read loosely in a test
  return result._meta?.['procmux/result'] as any;
}

describe.skipIf(process.platform === 'win32')('procmux mcp --store', () => {
  const dirs: string[] = [];
  const dir = (prefix: string) => {
    const d = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(d);
    return d;
  };
  afterAll(async () => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    await assertNoLeakedProcesses();
  });

  it('keeps records in the SQLite file given', async () => {
    const root = dir('pm-store-root-');
    const file = join(dir('pm-store-db-'), 'records.sqlite');
    const server = await serve(['--cwd', root, '--state-dir', dir('pm-store-state-'), '--store', file]);
    const started = await exec(server.client, { command: 'echo hi', mode: 'daemon' });
    expect(started.session.id).toMatch(/\S/);
    expect(existsSync(file)).toBe(true);
    await server.client.close();
  });

  it.skipIf(requireTool('postgres') !== undefined)(
    'writes records and leases to PostgreSQL: renewed while the host lives, lapsed --lease-ttl after it died',
    async () => {
      if (PG_URL === undefined) throw new Error('PROCMUX_PG_URL is not set under CI');
      const db = `procmux_store_${randomBytes(5).toString('hex')}`;
      const admin = new pg.Pool({ connectionString: PG_URL, max: 1 });
      await admin.query(`CREATE DATABASE ${db}`);
      const url = PG_URL.replace(/\/[^/]*$/, `/${db}`);
      const store = openPostgresRecoveryStore({ url });
      try {
        const root = dir('pm-store-root-');
        const server = await serve([
          '--cwd',
          root,
          '--state-dir',
          dir('pm-store-state-'),
          '--store',
          url,
          '--lease-ttl',
          '2',
        ]);
        const started = await exec(server.client, { command: 'sleep 30', mode: 'daemon' });
        const id: string = started.session.id;
        const records = await store.checkpoints.list(RECOVERY_NAMESPACE);
        expect(records.map((r) => r.key)).toContain(id);
        // Held and renewed: past three TTLs, another holder still cannot take it.
        const t0 = Date.now();
        while (Date.now() - t0 < 6_000) {
          expect(await store.leases.acquire(RECOVERY_NAMESPACE, id, 'intruder', 1_000)).toBeUndefined();
          await new Promise((r) => setTimeout(r, 500));
        }
        // SIGKILLed, the host renews nothing: the lease lapses after its TTL (2 s), not 15.
        const killedAt = Date.now();
        process.kill(server.pid, 'SIGKILL');
        await waitFor(
          async () => (await store.leases.acquire(RECOVERY_NAMESPACE, id, 'intruder', 1_000)) !== undefined,
          3_000,
          'the lease to lapse within --lease-ttl + 1 s of the host dying',
        );
        expect(Date.now() - killedAt).toBeLessThan(3_000);
        await server.client.close().catch(() => {});
      } finally {
        await store.close();
        await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
        await admin.end();
      }
    },
    30_000,
  );
});
