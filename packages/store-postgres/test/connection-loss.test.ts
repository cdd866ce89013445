// PostgreSQL dropped mid-lease: a host's connections terminated by the server
// (pg_terminate_backend) while the way back is cut, past its lease, then restored. The host
// survives the dropped connections (the pool's 'error' is handled), another host's recover()
// marks the session `unknown` under a new fencing token once the lease lapsed, and the first
// host, back, is fenced out: its writes never land, so the record never has two owners.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { RECOVERY_NAMESPACE } from '@procmux/core-types';
import { createProcessSessions } from '@procmux/sessions';
import { assertNoLeakedProcesses, isAlive, makeWorkspace, trackPid, waitFor } from '@procmux/test-utils';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresRecoveryStore } from '../src/index.js';
import { dropSchemas, freshSchema, PG_SKIP_REASON, PG_URL } from './postgres-env.js';

const HOST = fileURLToPath(new URL('./fixtures/lease-host.mjs', import.meta.url));
const TTL_MS = 2_000;
const NS = RECOVERY_NAMESPACE;

/** A TCP relay to the server that the test can shut (refusing new connections) and reopen. */
class Relay {
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  port = 0;

  constructor(target: { host: string; port: number }) {
    this.#server = createServer((client) => {
      const upstream = connect(target.port, target.host);
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on('error', () => {});
        socket.on('close', () => {
          this.#sockets.delete(socket);
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
  }

  open(): Promise<void> {
    return new Promise((resolve) =>
      this.#server.listen(this.port, '127.0.0.1', () => {
        this.port = (this.#server.address() as { port: number }).port;
        resolve();
      }),
    );
  }

  /** New connections are refused from now on; those open stay (the server ends them). */
  shut(): void {
    // close() stops listening at once; its callback would wait for the open ones to end.
    this.#server.close();
  }

  destroy(): void {
    for (const socket of this.#sockets) socket.destroy();
    this.#server.close();
  }
}

/** The host process's JSON lines, and a wait for the next one that matches. */
function lines(child: ChildProcess) {
  const seen: Record<string, unknown>[] = [];
  let buffer = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => {
    buffer += d.toString();
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      seen.push(JSON.parse(buffer.slice(0, nl)) as Record<string, unknown>);
      buffer = buffer.slice(nl + 1);
    }
  });
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  return {
    seen,
    /** The first line from `from` on that matches; fails at once if the host died. */
    async next(match: (line: Record<string, unknown>) => boolean, from = 0, what = 'a line') {
      return waitFor(
        () => {
          const found = seen.slice(from).find(match);
          if (found) return found;
          if (child.exitCode !== null || child.signalCode !== null) {
            throw new Error(
              `the host ended (${child.exitCode ?? child.signalCode}) waiting for ${what}: ${stderr}`,
            );
          }
          return undefined;
        },
        30_000,
        what,
      );
    },
  };
}

describe.skipIf(PG_URL === undefined)(
  PG_URL === undefined ? `postgres ${PG_SKIP_REASON}` : 'postgres dropped mid-lease',
  () => {
    const schemas: string[] = [];
    const children: ChildProcess[] = [];
    afterAll(async () => {
      for (const child of children)
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await dropSchemas(schemas);
      await assertNoLeakedProcesses();
    });

    it('the host survives its connections being terminated; once its lease lapsed it is fenced out, never a second owner', async () => {
      const schema = freshSchema();
      schemas.push(schema);
      const url = new URL(PG_URL!);
      const relay = new Relay({ host: url.hostname, port: Number(url.port) });
      await relay.open();
      const app = `procmux-lease-host-${randomBytes(4).toString('hex')}`;
      const hostUrl = new URL(PG_URL!);
      hostUrl.port = String(relay.port);
      hostUrl.searchParams.set('application_name', app);
      const admin = new pg.Pool({ connectionString: PG_URL!, max: 1 });
      const store = openPostgresRecoveryStore({ url: PG_URL!, schema });
      const b = createProcessSessions({
        cwd: makeWorkspace(),
        checkpoints: store.checkpoints,
        leases: store.leases,
        ownerId: 'host-b',
        recoveryLimits: { leaseTtlMs: TTL_MS },
      });
      const host = spawn(process.execPath, [HOST], {
        env: {
          ...process.env,
          PROCMUX_LEASE_HOST_URL: hostUrl.href,
          PROCMUX_LEASE_HOST_SCHEMA: schema,
          PROCMUX_LEASE_HOST_CWD: makeWorkspace(),
          PROCMUX_LEASE_HOST_TTL_MS: String(TTL_MS),
        },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      children.push(host);
      trackPid(host.pid);
      const out = lines(host);
      try {
        const started = (await out.next((l) => 'id' in l, 0, 'the session')) as {
          id: string;
          pid: number;
          token: number;
        };
        trackPid(started.pid);
        const lease = async () =>
          (
            await admin.query<{ holder: string; token: string; left: string }>(
              `SELECT holder, token, expires_at - (extract(epoch from clock_timestamp()) * 1000)::bigint AS left
               FROM "${schema}".leases WHERE namespace = $1 AND key = $2`,
              [NS, started.id],
            )
          ).rows[0];
        const record = async () =>
          JSON.parse((await store.checkpoints.get(NS, started.id))!.data) as {
            state: string;
            replica: string;
          };

        // The way back is cut, then the server ends every connection of the host: at least one
        // idle in its pool (the heartbeat's), whose error the pool emits with no query to fail.
        relay.shut();
        await waitFor(
          async () =>
            (
              await admin.query(
                `SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND state = 'idle'`,
                [app],
              )
            ).rowCount! > 0,
          30_000,
          'an idle connection of the host',
        );
        const terminated = await admin.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
          [app],
        );
        expect(terminated.rowCount).toBeGreaterThan(0);

        // The heartbeat's renewals now fail (logged, retried) until the lease lapses by the
        // database's clock; the host lives on meanwhile.
        const failedFrom = out.seen.length;
        await out.next(
          (l) => String(l.warn).includes('durable record write failed'),
          failedFrom,
          'a failed renewal',
        );
        await waitFor(async () => Number((await lease())!.left) < 0, 30_000, 'the lease to lapse');
        expect(isAlive(host.pid!)).toBe(true);

        // Another host recovers: the session is `unknown` (its process is not B's to see), under
        // a token above the one the first host holds.
        const report = await b.recover();
        expect(report.outcomes.find((o) => o.id === started.id)).toMatchObject({
          outcome: 'unknown',
          written: true,
        });
        const taken = (await store.checkpoints.get(NS, started.id))!;
        expect(taken.fencingToken).toBeGreaterThan(started.token);
        expect(await record()).toMatchObject({ state: 'unknown', replica: 'host-b' });

        // The way back opens (the server is reachable again): the first host's next renewal
        // meets the new token and stops every write of its own for that record.
        const fencedFrom = out.seen.length;
        await relay.open();
        await out.next((l) => String(l.warn).includes('another replica took over'), fencedFrom, 'the fence');

        // It still runs and answers; its session ending now writes nothing over B's record.
        host.stdin!.write('status\n');
        const status = await out.next((l) => 'state' in l, fencedFrom, 'the status');
        expect(status).toMatchObject({ state: 'running', record: { state: 'unknown', replica: 'host-b' } });
        const killedFrom = out.seen.length;
        host.stdin!.write('kill\n');
        const after = await out.next((l) => 'state' in l, killedFrom, 'the kill');
        expect(after).toMatchObject({ state: 'killed', record: { state: 'unknown', replica: 'host-b' } });
        expect(await store.checkpoints.get(NS, started.id)).toEqual(taken);
        // Nor could it: a write under its old token is refused by the database.
        await expect(
          store.checkpoints.compareAndSet(NS, {
            key: started.id,
            data: JSON.stringify({ ...(await record()), state: 'exited', replica: 'host-a' }),
            expectedVersion: taken.version,
            fencingToken: started.token,
          }),
        ).rejects.toMatchObject({ code: 'ERR_RECOVERY_FENCE' });
        expect(await store.checkpoints.get(NS, started.id)).toEqual(taken);
        expect((await lease())?.holder).not.toBe('host-a');
        expect(isAlive(started.pid)).toBe(false);
        host.stdin!.end();
        await new Promise((resolve) => (host.exitCode !== null ? resolve(null) : host.once('exit', resolve)));
        expect(host.exitCode).toBe(0);
      } finally {
        relay.destroy();
        await b.dispose();
        await store.close();
        await admin.end();
      }
    });
  },
);
