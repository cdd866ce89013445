// Standby adoption (issue 34): two `procmux mcp` hosts (node dist/cli.js, SDK clients) share a
// PostgreSQL --store with --lease-ttl 3 and run sessions on a loopback sshd. Host A starts
// persisted sessions (tmux on the remote side) and is SIGKILLed; the figure is the time until
// host B lists them all running. The baseline is the lease TTL itself: nothing can adopt
// sooner than the lease lapses, and the issue's target is TTL + 1 s.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { BenchCase, BenchContext, Measured } from '../case.js';
import { fact, figure, num, signedMs } from '../format.js';
import { NotBuiltError } from '../load.js';
import { benchEnv, track, untrack } from '../processes.js';
import { loadSshdHelper } from '../sshd.js';
import { median } from '../stats.js';
import { sleep } from '../timing.js';

const TTL_S = 3;
const PROGRAM = 'i=1; while :; do echo "n-$i"; i=$((i+1)); sleep 0.25; done';

interface Host {
  pid: number;
  tool(name: string, args: Record<string, unknown>): Promise<{ text: string; data: unknown }>;
  close(): Promise<void>;
}

async function startHost(args: string[]): Promise<Host> {
  const require = createRequire(import.meta.url);
  let cli: string;
  try {
    cli = join(dirname(require.resolve('@procmux/mcp/package.json')), 'dist', 'cli.js');
    readFileSync(cli);
  } catch {
    throw new NotBuiltError('@procmux/mcp has no dist/cli.js; run pnpm build');
  }
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp', ...args],
    env: benchEnv(),
    stderr: 'ignore',
  });
  const client = new Client({ name: 'procmux-bench', version: '1.0.0' });
  await client.connect(transport);
  const pid = transport.pid!;
  track(pid);
  return {
    pid,
    async tool(name, toolArgs) {
      const result = await client.callTool({ name, arguments: toolArgs }, undefined, { timeout: 120_000 });
      const content = result.content as { type: string; text?: string }[];
      if (result.isError) throw new Error(`${name} failed: ${content[0]?.text ?? ''}`);
      return { text: content[0]?.text ?? '', data: result._meta?.['procmux/result'] };
    },
    async close() {
      await client.close().catch(() => {});
      untrack(pid);
    },
  };
}

/** Seconds from A's SIGKILL until B lists all `count` sessions running. */
async function adoptOnce(ctx: BenchContext, url: string, count: number): Promise<number> {
  const helper = await loadSshdHelper(ctx.tmpDir);
  const missing = helper.sshdMissingReason();
  if (missing !== undefined) throw new NotBuiltError(`no sshd here: ${missing}`);
  const sshd = await helper.startTestSshd();
  const workspace = mkdtempSync(join(ctx.tmpDir, 'failover-ws-'));
  const base = (state: string) => [
    '--ssh',
    `${sshd.username}@127.0.0.1:${sshd.port}`,
    '--ssh-identity',
    sshd.identityFile,
    '--ssh-known-hosts',
    sshd.knownHostsFile,
    '--cwd',
    workspace,
    '--state-dir',
    mkdtempSync(join(ctx.tmpDir, state)),
    '--store',
    url,
    '--lease-ttl',
    String(TTL_S),
    '--max-sessions',
    '16',
  ];
  const a = await startHost(base('failover-a-'));
  const b = await startHost(base('failover-b-'));
  try {
    const ids: string[] = [];
    for (let n = 0; n < count; n++) {
      const r = await a.tool('exec', { command: PROGRAM, mode: 'session', persist: true });
      ids.push((r.data as { session: { id: string } }).session.id);
    }
    await sleep(1_000);
    const killedAt = Date.now();
    process.kill(a.pid, 'SIGKILL');
    await a.close();
    for (;;) {
      const list = (await b.tool('process', { action: 'list' })).data as {
        sessions?: { id: string; state: string }[];
      };
      const running = (list.sessions ?? []).filter((s) => ids.includes(s.id) && s.state === 'running');
      if (running.length === count) break;
      if (Date.now() - killedAt > 120_000)
        throw new Error(`B adopted ${running.length} of ${count} in 120 s`);
      await sleep(20);
    }
    const ms = Date.now() - killedAt;
    for (const id of ids) await b.tool('process', { action: 'kill', session_id: id });
    return ms;
  } finally {
    await b.close();
    // The "remote" tmux dir is in sshd's own HOME, which stop() removes.
    await sshd.stop();
  }
}

export const failoverAdopt: BenchCase = {
  id: 'failover-adopt',
  title: 'standby adopts a SIGKILLed host’s remote session (lease TTL)',
  target: '≤ TTL + 1 s',
  async run(ctx: BenchContext): Promise<Measured> {
    const pgUrl = process.env.PROCMUX_PG_URL;
    if (pgUrl === undefined)
      throw new NotBuiltError('PROCMUX_PG_URL is not set (tooling/scripts/postgres.sh start)');
    const pg = (await import('pg')).default;
    const admin = new pg.Pool({ connectionString: pgUrl, max: 1 });
    const runs = ctx.quick ? 1 : 3;
    const one: number[] = [];
    let sixteen: number | undefined;
    try {
      for (let i = 0; i < runs + 1; i++) {
        const db = `procmux_bench_${randomBytes(5).toString('hex')}`;
        await admin.query(`CREATE DATABASE ${db}`);
        const url = pgUrl.replace(/\/[^/]*$/, `/${db}`);
        try {
          if (i < runs) {
            ctx.progress(`failover-adopt: 1 session, run ${i + 1}/${runs}`);
            one.push(await adoptOnce(ctx, url, 1));
          } else {
            ctx.progress('failover-adopt: 16 sessions');
            sixteen = await adoptOnce(ctx, url, 16);
          }
        } finally {
          await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`).catch(() => {});
        }
      }
    } finally {
      await admin.end();
    }
    const ttlMs = TTL_S * 1000;
    const m = median(one);
    return {
      status: 'measured',
      procmux: figure(one, 'ms'),
      raw: fact(`${ttlMs} ms (the lease TTL)`, [ttlMs], 'ms'),
      ratio: signedMs(m - ttlMs),
      pass: one.every((ms) => ms <= ttlMs + 1_000),
      notes: [
        `--lease-ttl ${TTL_S}; time from SIGKILL of host A to host B listing the session running`,
        `16 sessions at once: ${sixteen === undefined ? 'not run' : `${num(sixteen)} ms`}`,
      ],
    };
  },
};
