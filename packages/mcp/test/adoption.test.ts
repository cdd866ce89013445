// Standby adoption in this process (failover.test.ts drives two built servers over SSH): two
// registries share one real SQLite store and one real tmux server, as two hosts sharing a store
// and a remote machine do. While host A renews its lease, B refuses A's session, naming A; once
// A stops renewing, B adopts it, says so once, and drives it. A host on a shared PostgreSQL store
// (when one is given in PROCMUX_PG_URL) writes its records there under an id of this machine.

import { mkdtempSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { createTmuxBackend, type TmuxBackend } from '@procmux/backend-tmux';
import { RECOVERY_NAMESPACE } from '@procmux/core-types';
import { createProcessSessions, type ProcessSessions } from '@procmux/sessions';
import { openSqliteRecoveryStore, type SqliteRecoveryStore } from '@procmux/store-sqlite';
import { assertNoLeakedProcesses, isAlive, requireTool, testTmpdir, waitFor } from '@procmux/test-utils';
import { createProcessTools } from '@procmux/tools';
import { afterAll, describe, expect, it } from 'vitest';
import { type Adoption, replicasOf, startAdoption } from '../src/adoption.js';
import { openServerHost } from '../src/host.js';
import { openRecordStore } from '../src/record-store.js';
import { workspaceHash } from '../src/state-dir.js';

const root = mkdtempSync(join(testTmpdir(), 'procmux-adopt-'));
const cleanups: (() => Promise<unknown> | unknown)[] = [];

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(root, { recursive: true, force: true });
  await assertNoLeakedProcesses();
});

const TTL_MS = 1_000;
const TICKS = 'i=0; while :; do echo "tick-$i"; i=$((i+1)); sleep 0.1; done';

function host(name: string, tmux: TmuxBackend): { sessions: ProcessSessions; store: SqliteRecoveryStore } {
  const store = openSqliteRecoveryStore({ path: join(root, 'shared.sqlite') });
  const sessions = createProcessSessions({
    cwd: root,
    checkpoints: store.checkpoints,
    leases: store.leases,
    ownerId: name,
    recoveryBackend: tmux,
    persistentPtyBackend: tmux,
    recoveryLimits: { leaseTtlMs: TTL_MS },
  });
  cleanups.push(() => store.close());
  return { sessions, store };
}

describe.skipIf(requireTool('tmux') !== undefined)('standby adoption over a shared store', () => {
  it("refuses a session another host drives, naming it; adopts it once that host's lease lapsed", async () => {
    const tmux = createTmuxBackend({ dir: join(root, 'tmux') });
    cleanups.push(() => tmux.killServer());
    const a = host('host-a', tmux);
    // Each host has its own backend on the one tmux server, as two processes would.
    const b = host('host-b', createTmuxBackend({ dir: join(root, 'tmux') }));
    cleanups.push(() => b.sessions.dispose());
    const session = await a.sessions.start({ command: TICKS, shell: true, pty: true, lifetime: 'detached' });
    const id = session.id;
    const pid = session.metadata().pid!;
    cleanups.push(() => {
      if (isAlive(pid)) process.kill(-pid, 'SIGKILL');
    });
    expect((await replicasOf(b.store.checkpoints)).get(id)).toBe('host-a');

    const logs: string[] = [];
    const adoption: Adoption = startAdoption({
      sessions: b.sessions,
      checkpoints: b.store.checkpoints,
      intervalMs: 100,
      log: (line) => logs.push(line),
    });
    cleanups.push(() => adoption.dispose());
    adoption.absorb(await b.sessions.recover(), await replicasOf(b.store.checkpoints));
    const tools = createProcessTools(b.sessions);
    adoption.wrap(tools.process);
    const refused = await tools.process.run({ action: 'poll', session_id: id });
    expect(refused.isError).toBe(true);
    expect(refused.text).toBe(
      `Error [ERR_RECOVERY_OWNERSHIP]: session ${id} is driven by host host-a, which holds its lease; this host cannot drive it`,
    );
    expect((await tools.process.run({ action: 'list' })).text).toContain(
      `${id}: driven by host host-a (not this one)`,
    );

    // Host A goes without ending its persisted session: its lease is no longer renewed.
    await a.sessions.dispose();
    expect(isAlive(pid)).toBe(true);
    await waitFor(() => b.sessions.list().some((s) => s.id === id), 15_000, 'host B to adopt the session');
    expect(logs).toContain(`procmux mcp: adopted ${id} from host host-a after its lease ran out`);
    // The replay of what it printed arrives after the adoption: the first read waits for a tick.
    const first = await tools.process.run({
      action: 'wait_for',
      session_id: id,
      pattern: 'tick-\\d+',
      timeout: 10_000,
    });
    expect(first.isError).not.toBe(true);
    expect(first.text).toMatch(/^adopted from host host-a after its lease ran out\n/);
    expect(first.text).toMatch(/tick-\d+/);
    const second = await tools.process.run({ action: 'poll', session_id: id });
    expect(second.text).not.toContain('adopted from host');
    expect((await tools.process.run({ action: 'list' })).text).not.toContain('not this one');
    await tools.process.run({ action: 'kill', session_id: id });
    await waitFor(() => !isAlive(pid), 10_000, 'the adopted session to die');
    expect((await replicasOf(b.store.checkpoints)).get(id)).toBe('host-b');
  });

  it('says so in the log when looking for sessions fails, and keeps looking', async () => {
    const store = openSqliteRecoveryStore({ path: join(root, 'failing.sqlite') });
    const sessions = createProcessSessions({
      cwd: root,
      checkpoints: store.checkpoints,
      leases: store.leases,
      ownerId: 'host-c',
    });
    cleanups.push(() => sessions.dispose());
    const logs: string[] = [];
    const adoption = startAdoption({
      sessions,
      checkpoints: store.checkpoints,
      intervalMs: 50,
      log: (line) => logs.push(line),
    });
    cleanups.push(() => adoption.dispose());
    // The store goes away under the adoption loop.
    store.close();
    await waitFor(() => logs.length >= 2, 5_000, 'two failed looks');
    expect(logs[0]).toMatch(/^procmux mcp: looking for sessions to adopt failed: /);
  });
});

const PG_URL = process.env.PROCMUX_PG_URL;

describe.skipIf(requireTool('postgres') !== undefined)('a host on a shared PostgreSQL store', () => {
  it("writes its records under this machine's id for its state dir, where other hosts see them", async () => {
    const stateDir = join(root, 'pg-state');
    const logs: string[] = [];
    const server = await openServerHost(
      { cwd: root, stateDir, store: { kind: 'postgres', url: PG_URL! }, leaseTtlMs: 2_000 },
      (line) => logs.push(line),
    );
    let closed = false;
    cleanups.push(() => (closed ? undefined : server.close('the test is done')));
    expect(logs.some((line) => /^procmux mcp: state in .*; recovered \d+ persisted session/.test(line))).toBe(
      true,
    );
    const result = await server.tools.exec.run({ command: 'echo shared-store' });
    expect(result.text).toMatch(/^shared-store\n/);
    const id = result.data.session!.id;
    const other = await openRecordStore({ kind: 'postgres', url: PG_URL! });
    try {
      expect(other.shared).toBe(true);
      const replicas = await replicasOf(other.checkpoints);
      expect(replicas.get(id)).toBe(`${hostname()}:${workspaceHash(stateDir)}`);
      const entry = await other.checkpoints.get(RECOVERY_NAMESPACE, id);
      expect(JSON.parse(entry!.data)).toMatchObject({ id, state: 'exited', exitCode: 0 });
    } finally {
      await other.close();
    }
    await server.close('the test is done');
    closed = true;
  });

  it('names the store when it cannot be used, never the password', async () => {
    const url = new URL(PG_URL!);
    url.port = '1';
    await expect(openRecordStore({ kind: 'postgres', url: url.toString() })).rejects.toThrow(
      /^--store: the PostgreSQL database could not be used: /,
    );
    await openRecordStore({ kind: 'postgres', url: url.toString() }).catch((error: Error) => {
      expect(error.message).not.toContain(url.password);
      expect((error as { code?: string }).code).toBe('ERR_RECOVERY_UNSUPPORTED');
    });
  });
});
