// Standby adoption across hosts: two `procmux mcp` servers (real processes, SDK clients)
// sharing a real PostgreSQL store (--store, --lease-ttl 3) drive sessions on a real sshd on
// loopback. Host A starts persisted sessions (tmux on the remote side) and is SIGKILLed; host B,
// already running, adopts them within TTL + 1 s and drives them to their end with nothing lost.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { RECOVERY_ATTACH_TIMEOUT_MS_LIMIT } from '@procmux/core-types';
import {
  assertNoLeakedProcesses,
  leakedCgroups,
  processTable,
  requireTool,
  startTestSshd,
  type TestSshd,
  waitFor,
} from '@procmux/test-utils';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { pollUntil as waitForOutput } from './poll-until.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const PG_URL = process.env.PROCMUX_PG_URL;
// A numbered line every 250 ms; a line read is echoed, `exit7` ends it with code 7. bash reads a
// terminal a byte at a time, and a `read -t` that times out mid-line (a loaded machine can stop
// the shell between two bytes) keeps what it read in `x`: kept in `p` until the line's end.
const PROGRAM =
  'i=1; p=; while :; do echo "n-$i"; i=$((i+1)); if read -r -t 0.25 x; then x="$p$x"; p=; [ "$x" = exit7 ] && exit 7; echo "got-$x"; sleep 0.25; else p="$p$x"; fi; done';

interface Host {
  client: Client;
  pid: number;
  stderr(): string;
}

async function call(host: Host, name: string, args: Record<string, unknown>) {
  const result = (await host.client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (result.content[0] as { type: 'text'; text: string }).text;
  // biome-ignore lint/suspicious/noExplicitAny: structured result read loosely in a test
  return { text, isError: result.isError === true, data: result._meta?.['procmux/result'] as any };
}

/** Polls session `id` on `host` until its output so far matches `pattern` (20 s, naming `what`). */
const pollUntil = (host: Host, id: string, pattern: RegExp, what: string) =>
  waitForOutput(
    () => call(host, 'process', { action: 'poll', session_id: id, timeout: 1_000 }),
    pattern,
    what,
    () => host.stderr(),
  );

/** Pids running exactly `sleep SECONDS` (an escapee found by its command line). */
const sleepers = (seconds: string) =>
  processTable()
    .filter((p) => p.state !== 'Z' && p.command === `sleep ${seconds}`)
    .map((p) => p.pid);

// How long a standby may take to adopt, by the product's own bounds: the lease lapses (--lease-ttl
// 3), a tick looks (a third of it), and a re-attach may take up to attachTimeoutMs (30 s) before
// it counts as failed (the session then reads `unknown`, never running). A stress run (two busy
// loops beside the whole suite) once took more than 20 s to re-attach 16 sessions over SSH.
const ADOPTION_BOUND_MS = 3_000 + 1_000 + RECOVERY_ATTACH_TIMEOUT_MS_LIMIT.default + 5_000;

const numbered = (text: string) => [...text.matchAll(/^n-(\d+)\r?$/gm)].map((m) => Number(m[1]));

const skip = requireTool('sshd') ?? requireTool('postgres');

describe.skipIf(skip !== undefined)(
  "failover: a standby host adopts a crashed host's remote sessions",
  () => {
    let sshd: TestSshd;
    let admin: pg.Pool;
    const hosts: Host[] = [];
    const dirs: string[] = [];
    const dir = (prefix: string) => {
      const d = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(d);
      return d;
    };

    beforeAll(async () => {
      if (PG_URL === undefined) throw new Error('PROCMUX_PG_URL is not set under CI');
      sshd = await startTestSshd();
      admin = new pg.Pool({ connectionString: PG_URL, max: 1 });
    });
    afterEach(async () => {
      for (const host of hosts.splice(0)) await host.client.close().catch(() => {});
    });
    afterAll(async () => {
      // The "remote" tmux dirs are in sshd's own HOME: stop() ends their servers and removes them.
      await sshd?.stop();
      await admin?.end();
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
      await assertNoLeakedProcesses();
    });

    async function freshStore(): Promise<string> {
      const db = `procmux_failover_${randomBytes(5).toString('hex')}`;
      await admin.query(`CREATE DATABASE ${db}`);
      return PG_URL!.replace(/\/[^/]*$/, `/${db}`);
    }

    async function serve(
      workspace: string,
      state: string,
      store: string,
      extra: string[] = [],
    ): Promise<Host> {
      let stderr = '';
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [
          CLI,
          'mcp',
          '--ssh',
          `${sshd.username}@127.0.0.1:${sshd.port}`,
          '--ssh-identity',
          sshd.identityFile,
          '--ssh-known-hosts',
          sshd.knownHostsFile,
          '--cwd',
          workspace,
          '--state-dir',
          state,
          '--store',
          store,
          '--lease-ttl',
          '3',
          '--max-sessions',
          '16',
          ...extra,
        ],
        stderr: 'pipe',
      });
      transport.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const client = new Client({ name: 'procmux-failover', version: '1.0.0' });
      await client.connect(transport);
      const host = { client, pid: transport.pid!, stderr: () => stderr };
      hosts.push(host);
      return host;
    }

    /** Every process that carries a tree marker minted by `pid` (its sessions on the "remote"). */
    const markedBy = (pid: number) =>
      processTable().filter((p) => p.state !== 'Z' && p.marker?.startsWith(`${pid}-`));

    async function scenario(count: number) {
      const workspace = dir('pm-fo-ws-');
      const store = await freshStore();
      const a = await serve(workspace, dir('pm-fo-a-'), store);
      const b = await serve(workspace, dir('pm-fo-b-'), store);
      const ids: string[] = [];
      for (let n = 0; n < count; n++) {
        const started = await call(a, 'exec', { command: PROGRAM, mode: 'session', persist: true });
        expect(started.isError, started.text).toBe(false);
        ids.push(started.data.session.id);
      }
      // A has read some of each session's output before it dies.
      for (const id of ids) {
        await pollUntil(a, id, /n-3/, "A's first lines");
      }
      const killedAt = Date.now();
      process.kill(a.pid, 'SIGKILL');
      await a.client.close().catch(() => {});
      hosts.splice(hosts.indexOf(a), 1);
      let states = '';
      let listed = '';
      await waitFor(
        async () => {
          const list = await call(b, 'process', { action: 'list' });
          listed = list.text;
          const mine = (list.data.sessions ?? []).filter((s: { id: string }) => ids.includes(s.id));
          states = mine.map((s: { id: string; state: string }) => `${s.id} ${s.state}`).join(', ');
          return mine.filter((s: { state: string }) => s.state === 'running').length === count;
        },
        ADOPTION_BOUND_MS,
        `host B to list all ${count} sessions running`,
      ).catch((error: Error) => {
        const missing = ids.filter((id) => !states.includes(`${id} running`)).join(', ');
        throw new Error(
          `${error.message}; B lists ${states || 'none of them'}; not running on B: ${missing}; ` +
            `B's list reply:\n${listed}\nB's log:\n${b.stderr()}`,
        );
      });
      const adoptMs = Date.now() - killedAt;
      return { a, b, ids, adoptMs };
    }

    it('one session: adopted after the lease lapsed, every line from 1 with no gap, input, exit 7, nothing left, A refused', async () => {
      const store = await freshStore();
      const workspace = dir('pm-fo-ws-');
      const stateA = dir('pm-fo-a-');
      const a = await serve(workspace, stateA, store);
      const b = await serve(workspace, dir('pm-fo-b-'), store);
      const started = await call(a, 'exec', { command: PROGRAM, mode: 'session', persist: true });
      expect(started.isError, started.text).toBe(false);
      const id: string = started.data.session.id;
      await pollUntil(a, id, /n-4/, "A's first lines");
      const killedAt = Date.now();
      process.kill(a.pid, 'SIGKILL');
      await a.client.close().catch(() => {});
      await waitFor(
        async () =>
          (await call(b, 'process', { action: 'list' })).data.sessions?.some(
            (s: { id: string; state: string }) => s.id === id && s.state === 'running',
          ),
        ADOPTION_BOUND_MS,
        'host B to list the session running',
      );
      const adoptMs = Date.now() - killedAt;
      // Logged, not asserted: tests never assert wall-clock speed; bench's failover-adopt does.
      console.info(`[failover] 1 session adopted ${adoptMs} ms after SIGKILL (--lease-ttl 3)`);
      await waitFor(
        () => new RegExp(`adopted ${id} from host \\S+ after its lease ran out`).test(b.stderr()),
        5_000,
        `B's log line saying it adopted ${id}:\n${b.stderr()}`,
      );

      // The first read names where it came from; the log has every line from 1, no gap.
      const first = await call(b, 'process', { action: 'log', session_id: id, limit: 1000 });
      expect(first.text).toMatch(/^adopted from host \S+ after its lease ran out\n/);
      // The history streams back from the remote log (its replay is in flight at first).
      let lines: number[] = [];
      await waitFor(
        async () => {
          lines = numbered((await call(b, 'process', { action: 'log', session_id: id, limit: 1000 })).text);
          return lines.length >= 5;
        },
        10_000,
        'the replayed history on B',
      );
      expect(lines[0]).toBe(1);
      expect(lines).toEqual(Array.from({ length: lines.length }, (_, i) => i + 1));
      const again = await call(b, 'process', { action: 'log', session_id: id, limit: 1000 });
      expect(again.text).not.toMatch(/adopted from host/);

      // A comes back on its state: the session is B's now.
      const a2 = await serve(workspace, stateA, store);
      expect(a2.stderr()).toMatch(/ERR_RECOVERY_OWNERSHIP/);
      const refused = await call(a2, 'process', { action: 'poll', session_id: id });
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(/ERR_RECOVERY_OWNERSHIP.*driven by host \S+/);
      expect((await call(a2, 'process', { action: 'list' })).text).toMatch(
        new RegExp(`${id}: driven by host \\S+ \\(not this one\\)`),
      );

      // B drives it: input answered, then `exit 7`.
      const wrote = await call(b, 'process', { action: 'write', session_id: id, data: 'hello\r' });
      expect(wrote.isError, wrote.text).toBe(false);
      await pollUntil(b, id, /got-hello/, 'the program on B answering the input B wrote');
      const wroteExit = await call(b, 'process', { action: 'write', session_id: id, data: 'exit7\r' });
      expect(wroteExit.isError, wroteExit.text).toBe(false);
      const waited = await call(b, 'process', {
        action: 'wait_for',
        session_id: id,
        exit: true,
        timeout: 15_000,
      });
      expect(waited.text).toMatch(/exited with code 7/);
      const log = (await call(b, 'process', { action: 'log', session_id: id, limit: 5000 })).text;
      const all = numbered(log);
      expect(all).toEqual(Array.from({ length: all.length }, (_, i) => i + 1));
      // Nothing of it is left on the remote side.
      await waitFor(() => markedBy(a.pid).length === 0, 10_000, 'no remote process of the session');
    }, 120_000);

    it('16 sessions: all adopted, each log whole from line 1, killed through B with nothing left', async () => {
      const { a, b, ids, adoptMs } = await scenario(16);
      console.info(`[failover] 16 sessions adopted ${adoptMs} ms after SIGKILL (--lease-ttl 3)`);
      for (const id of ids) {
        let lines: number[] = [];
        await waitFor(
          async () => {
            lines = numbered((await call(b, 'process', { action: 'log', session_id: id, limit: 1000 })).text);
            return lines.length >= 4;
          },
          20_000,
          `the replayed history of ${id} on B`,
        );
        expect(lines).toEqual(Array.from({ length: lines.length }, (_, i) => i + 1));
      }
      // Tree kill through the adopting host: every session ends, nothing of them is left there.
      for (const id of ids) {
        const killed = await call(b, 'process', { action: 'kill', session_id: id });
        expect(killed.isError, killed.text).toBe(false);
      }
      await waitFor(() => markedBy(a.pid).length === 0, 20_000, 'no remote process of the 16 sessions');
    }, 240_000);

    it("an escapee in an adopted remote pane ends with B's kill: the pane's cgroup went with its record", async () => {
      const workspace = dir('pm-fo-ws-');
      const store = await freshStore();
      const a = await serve(workspace, dir('pm-fo-a-'), store);
      const b = await serve(workspace, dir('pm-fo-b-'), store);
      // A daemon that leaves the pane's group and clears its environment: only the cgroup holds it.
      const started = await call(a, 'exec', {
        command: "(setsid sh -c 'exec env -i sleep 301.8' &); echo up; sleep 600",
        mode: 'session',
        persist: true,
      });
      expect(started.isError, started.text).toBe(false);
      const id: string = started.data.session.id;
      await waitFor(() => sleepers('301.8').length === 1, 20_000, 'the escapee to be up');
      expect(leakedCgroups([a.pid])).toHaveLength(1);
      process.kill(a.pid, 'SIGKILL');
      await a.client.close().catch(() => {});
      hosts.splice(hosts.indexOf(a), 1);
      await waitFor(
        async () =>
          (await call(b, 'process', { action: 'list' })).data.sessions?.some(
            (s: { id: string; state: string }) => s.id === id && s.state === 'running',
          ),
        ADOPTION_BOUND_MS,
        'host B to list the session running',
      );
      // A's death ended nothing there: the pane and its escapee run on, held by the cgroup.
      expect(sleepers('301.8')).toHaveLength(1);
      const killed = await call(b, 'process', { action: 'kill', session_id: id });
      expect(killed.isError, killed.text).toBe(false);
      expect({ left: sleepers('301.8'), cgroups: leakedCgroups([a.pid, b.pid]) }).toEqual({
        left: [],
        cgroups: [],
      });
    }, 120_000);

    it("an adopted session is the new host's own: C-c interrupts python, the live view lists and streams it", async () => {
      const workspace = dir('pm-fo-ws-');
      const store = await freshStore();
      const a = await serve(workspace, dir('pm-fo-a-'), store);
      const b = await serve(workspace, dir('pm-fo-b-'), store, ['--view', '0', '--view-host', '127.0.0.1']);
      const started = await call(a, 'exec', {
        // An endless loop printing a numbered line every 200 ms, in one line of Python.
        command: `/usr/bin/python3 -u -c '[(print("py-%d" % i), __import__("time").sleep(0.2)) for i in __import__("itertools").count(1)]'`,
        mode: 'session',
        persist: true,
      });
      expect(started.isError, started.text).toBe(false);
      const id: string = started.data.session.id;
      await pollUntil(a, id, /py-3/, "A's first lines");
      process.kill(a.pid, 'SIGKILL');
      await a.client.close().catch(() => {});
      hosts.splice(hosts.indexOf(a), 1);

      // B's view page: its session list shows the adopted session running, as soon as it is.
      const url = new URL(/procmux view: (\S+)/.exec(b.stderr())![1]!);
      const token = url.searchParams.get('token')!;
      const socket = (path: string) =>
        new WebSocket(`ws://${url.host}${path}${path.includes('?') ? '&' : '?'}token=${token}`, {
          origin: `http://${url.host}`,
        });
      const list = socket('/ws/sessions');
      const rows: { id: string; state: string }[][] = [];
      list.on('message', (raw) => {
        const message = JSON.parse(raw.toString()) as {
          type: string;
          sessions?: { id: string; state: string }[];
        };
        if (message.type === 'sessions') rows.push(message.sessions ?? []);
      });
      try {
        await waitFor(
          () => rows.at(-1)?.some((r) => r.id === id && r.state === 'running') === true,
          ADOPTION_BOUND_MS,
          `B's view to list ${id} running`,
        );
        // Its page streams the live output of the adopted session.
        const tab = socket(`/ws/session?id=${id}`);
        let live = '';
        tab.on('message', (raw) => {
          const message = JSON.parse(raw.toString()) as { type: string; data?: string };
          if (message.type === 'output') live += message.data ?? '';
        });
        try {
          await waitFor(
            () => (live.match(/py-\d+/g) ?? []).length >= 3,
            20_000,
            'live output on the view page',
          );
        } finally {
          tab.close();
        }

        // C-c through B reaches the remote terminal: KeyboardInterrupt, and python ends by SIGINT.
        const keys = await call(b, 'process', { action: 'send_keys', session_id: id, keys: ['C-c'] });
        expect(keys.isError, keys.text).toBe(false);
        const waited = await call(b, 'process', {
          action: 'wait_for',
          session_id: id,
          exit: true,
          timeout: 15_000,
        });
        expect(waited.text).toMatch(/SIGINT/);
        expect(waited.data.session).toMatchObject({ exitCode: null, signal: 'SIGINT' });
        const log = (await call(b, 'process', { action: 'log', session_id: id, limit: 5000 })).text;
        expect(log).toContain('KeyboardInterrupt');
        // The page's list says it ended.
        await waitFor(
          () => rows.at(-1)?.some((r) => r.id === id && r.state !== 'running') === true,
          10_000,
          `B's view to list ${id} ended`,
        );
      } finally {
        list.close();
      }
      await waitFor(() => markedBy(a.pid).length === 0, 10_000, 'no remote process of the session');
    }, 120_000);
  },
);
