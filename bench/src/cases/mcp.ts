// `procmux mcp` as a host runs it (node dist/cli.js mcp, the SDK's own client over stdio):
// the server's memory under a 50 MB one-shot, and what a tool call adds to running `echo hi`.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { alternate } from '../alternate.js';
import type { BenchCase, BenchContext, Measured } from '../case.js';
import { fact, figure, num, signedMs } from '../format.js';
import { NotBuiltError } from '../load.js';
import { benchEnv, track, untrack } from '../processes.js';
import { expectSuccess } from '../procmux.js';
import { rawPipe } from '../raw.js';
import { median } from '../stats.js';
import { sleep } from '../timing.js';

const MB = 1e6;
const MiB = 2 ** 20;
/** The session's retained-history cap (maxOutputBytes default, 64 MiB). */
const RETAINED_CAP = 64 * MiB;
const ROUND_TRIP_ALLOWANCE_MS = 5;
const ONE_SHOT_MAX_RATIO = 1.3;

/** The one-shot the two big cases print: 100-column lines of `a`. */
const bigOneShot = (bytes: number) => `head -c ${bytes} /dev/zero | tr '\\0' a | fold -w 100`;

export interface Server {
  pid: number;
  /** An exec call; throws on an error result. */
  call(args: Record<string, unknown>): Promise<string>;
  /** Any tool call: its first text, and whether it is an error. */
  tool(name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }>;
  close(): Promise<void>;
}

export async function startServer(cwd: string): Promise<Server> {
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
  // A state dir of its own, removed at close: the default is one per workspace in ~/.local/state.
  const stateDir = mkdtempSync(join(tmpdir(), 'procmux-bench-state-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp', '--cwd', cwd, '--state-dir', stateDir],
    env: benchEnv(),
    stderr: 'ignore',
  });
  const client = new Client({ name: 'procmux-bench', version: '1.0.0' });
  await client.connect(transport);
  const pid = transport.pid!;
  track(pid);
  const tool = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 300_000 });
    const content = result.content as { type: string; text?: string }[];
    return { text: content[0]?.text ?? '', isError: result.isError === true };
  };
  return {
    pid,
    tool,
    async call(args) {
      const { text, isError } = await tool('exec', args);
      if (isError) throw new Error(`exec failed: ${text}`);
      return text;
    },
    async close() {
      await client.close();
      untrack(pid);
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/** Resident and peak resident bytes of a process (Linux /proc). */
function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1]) * 1024;
  return { rss: field('VmRSS'), peak: field('VmHWM') };
}

/** CPU time (user + system) a process has used so far, in ms (Linux /proc; clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The end line, with or without the usage suffix a cgroup-held session adds. */
function endedCleanly(text: string): boolean {
  return /Process exited with code 0\.( \([^)]*\))?$/.test(text);
}

export const mcpBigOneShot: BenchCase = {
  id: 'mcp-big-one-shot',
  title: '`procmux mcp`, one one-shot printing 50 MB: peak server RSS over idle [idle server]',
  target: '≤ idle + 1.5 × 64 MiB + 100 MB',
  async run(ctx: BenchContext): Promise<Measured> {
    const bytes = ctx.quick ? 20 * MB : 50 * MB;
    const server = await startServer(ctx.tmpDir);
    try {
      await server.call({ command: 'echo warm' });
      await sleep(500);
      const idle = memory(server.pid).rss;
      ctx.progress(`mcp-big-one-shot: ${bytes / MB} MB through exec one_shot`);
      const text = await server.call({ command: bigOneShot(bytes) });
      if (!endedCleanly(text)) throw new Error('the 50 MB one-shot did not finish');
      const { peak } = memory(server.pid);
      const growth = peak - idle;
      const limit = 1.5 * RETAINED_CAP + 100 * MB;
      return {
        status: 'measured',
        procmux: fact(`+${num(growth / MiB)} MiB over idle`, [growth / MiB], 'MiB'),
        raw: fact(`idle ${num(idle / MiB)} MiB`, [idle / MiB], 'MiB'),
        ratio: `${num(growth / RETAINED_CAP)}× the 64 MiB cap`,
        pass: growth <= limit,
        notes: [
          `${bytes / MB} MB one-shot, reply ${text.length} characters; limit ${num(limit / MiB)} MiB over idle; peak ${num(peak / MiB)} MiB; one run`,
          ...(ctx.quick ? ['quick mode: 20 MB instead of 50 MB'] : []),
        ],
      };
    } finally {
      await server.close();
    }
  },
};

// Counted pairs: with 5, five full runs of the same code on an idle 2-core VM gave the raw
// median 178–210 ms and the ratio 1.04–1.40× (2026-12-08); 15 cost ~8 s. --quick keeps 5.
const ONE_SHOT_FULL_PAIRS = 15;
const ONE_SHOT_QUICK_PAIRS = 5;

export const mcpOneShot50mb: BenchCase = {
  id: 'mcp-one-shot-50mb',
  title: '`procmux mcp`, exec one_shot printing 50 MB: call → reply [bare spawn reading the same bytes]',
  target: `≤ ${ONE_SHOT_MAX_RATIO}× raw time`,
  async run(ctx: BenchContext): Promise<Measured> {
    const bytes = ctx.quick ? 20 * MB : 50 * MB;
    const command = bigOneShot(bytes);
    // fold breaks every 100 bytes: a line feed between rows, none after the last.
    const expected = bytes + Math.ceil(bytes / 100) - 1;
    const server = await startServer(ctx.tmpDir);
    try {
      await server.call({ command: 'echo warm' });
      const idle = memory(server.pid).rss;
      // The server's own CPU per call: the machine may be loaded, this is not.
      const serverCpu: number[] = [];
      const pairs = ctx.quick ? ONE_SHOT_QUICK_PAIRS : ONE_SHOT_FULL_PAIRS;
      const { a, b } = await alternate({
        warmup: 1,
        runs: pairs,
        onPair: (i) => ctx.progress(`mcp-one-shot-50mb: pair ${i + 1}/${pairs}`),
        a: async () => {
          const cpuBefore = cpuMs(server.pid);
          const start = performance.now();
          const text = await server.call({ command });
          const took = performance.now() - start;
          serverCpu.push(cpuMs(server.pid) - cpuBefore);
          if (!endedCleanly(text)) throw new Error('the one-shot did not finish');
          return took;
        },
        b: async () => {
          let received = 0;
          const start = performance.now();
          const code = await rawPipe(command, { onData: (chunk) => (received += chunk.length) }, 300_000);
          const took = performance.now() - start;
          expectSuccess(code, 'bare spawn of the one-shot');
          if (received !== expected) throw new Error(`bare spawn read ${received} of ${expected} bytes`);
          return took;
        },
      });
      const { peak } = memory(server.pid);
      const ratio = median(a) / median(b);
      return {
        status: 'measured',
        procmux: figure(a, 'ms'),
        raw: figure(b, 'ms'),
        ratio: `${num(ratio)}×`,
        pass: ratio <= ONE_SHOT_MAX_RATIO,
        notes: [
          `${bytes / MB} MB one-shot, 1 warm-up + ${pairs} counted pairs on one server; server RSS idle ${num(idle / MiB)} MiB, peak ${num(peak / MiB)} MiB (VmHWM over all ${pairs + 1} calls)`,
          `server CPU per call (user + system, /proc): median ${num(median(serverCpu.slice(1)))} ms (${serverCpu
            .slice(1)
            .map((ms) => num(ms))
            .join(', ')}; warm-up ${num(serverCpu[0] ?? 0)})`,
          'raw: child_process.spawn of the same command line, stdout decoded as UTF-8 and counted',
        ],
      };
    } finally {
      await server.close();
    }
  },
};

export const mcpRoundTrip: BenchCase = {
  id: 'mcp-round-trip',
  title: '`echo hi` as exec one_shot through `procmux mcp` and the SDK client [child_process spawn]',
  target: `≤ raw + ${ROUND_TRIP_ALLOWANCE_MS} ms`,
  async run(ctx: BenchContext): Promise<Measured> {
    const runs = ctx.quick ? 15 : 50;
    const server = await startServer(ctx.tmpDir);
    try {
      const { a, b } = await alternate({
        warmup: 3,
        runs,
        onPair: (i) => {
          if ((i + 1) % 10 === 0) ctx.progress(`mcp-round-trip: ${i + 1}/${runs}`);
        },
        a: async () => {
          const start = performance.now();
          const text = await server.call({ command: 'echo hi' });
          const took = performance.now() - start;
          if (!/^hi\n\n/.test(text) || !endedCleanly(text)) throw new Error(`unexpected reply: ${text}`);
          return took;
        },
        b: async () => {
          const start = performance.now();
          let out = '';
          const code = await rawPipe('echo hi', { onData: (chunk) => (out += chunk) }, 15_000);
          expectSuccess(code, 'raw echo hi');
          if (out !== 'hi\n') throw new Error(`raw echo hi printed ${JSON.stringify(out)}`);
          return performance.now() - start;
        },
      });
      const extra = median(a) - median(b);
      return {
        status: 'measured',
        procmux: figure(a, 'ms'),
        raw: figure(b, 'ms'),
        ratio: signedMs(extra),
        pass: extra <= ROUND_TRIP_ALLOWANCE_MS,
        notes: [
          `median of ${runs} calls per side after 3 warm-up pairs; raw: spawn bash -c 'echo hi' until its pipes close`,
        ],
      };
    } finally {
      await server.close();
    }
  },
};
