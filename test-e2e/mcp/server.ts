// The built `procmux mcp` as a host runs it: through the SDK's own client, or raw over its
// stdio for frames no SDK client would send.
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { testTmpdir, trackPid } from '@procmux/test-utils';

const require = createRequire(import.meta.url);
export const CLI = join(dirname(require.resolve('@procmux/mcp/package.json')), 'dist', 'cli.js');

export function workspace(): string {
  return realpathSync(mkdtempSync(join(testTmpdir(), 'procmux-stress-')));
}

const stateDirs: string[] = [];

// Each server gets a state directory of its own, never the user's ~/.local/state: a random
// `persist: true` (the fuzz) starts a tmux-held session that outlives its server by design.
function withStateDir(extraArgs: string[]): string[] {
  if (extraArgs.some((arg) => arg.startsWith('--state-dir'))) return extraArgs;
  const dir = mkdtempSync(join(tmpdir(), 'pm-state-'));
  stateDirs.push(dir);
  return [...extraArgs, '--state-dir', dir];
}

/**
 * Ends what the servers left on purpose (persisted sessions: their private tmux server) and
 * deletes their state directories. Call it before the leak check.
 */
export function endStateDirs(): void {
  for (const dir of stateDirs.splice(0)) {
    try {
      execFileSync('tmux', ['-S', join(dir, 'tmux', 'tmux.sock'), 'kill-server'], { stdio: 'ignore' });
    } catch {}
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface SdkServer {
  client: Client;
  pid: number;
  stderr(): string;
  call(name: string, args: unknown, timeoutMs?: number): Promise<{ text: string; isError: boolean }>;
  close(): Promise<void>;
}

/** The server driven by the official SDK client, as a host would. */
export async function startSdk(cwd: string, extraArgs: string[] = []): Promise<SdkServer> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--cwd', cwd, ...withStateDir(extraArgs)],
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'procmux-stress', version: '1.0.0' });
  await client.connect(transport);
  const pid = transport.pid!;
  trackPid(pid);
  return {
    client,
    pid,
    stderr: () => stderr,
    async call(name, args, timeoutMs = 180_000) {
      const result = (await client.callTool({ name, arguments: args as Record<string, unknown> }, undefined, {
        timeout: timeoutMs,
      })) as CallToolResult;
      const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
      return { text, isError: result.isError === true };
    },
    close: () => client.close(),
  };
}

export interface RawReply {
  jsonrpc: string;
  id: string | number | null;
  result?: { content?: { text: string }[]; isError?: boolean };
  error?: { code: number; message: string };
}

export interface RawServer {
  child: ChildProcessWithoutNullStreams;
  pid: number;
  /** Writes bytes as they are (add the newline yourself). */
  write(data: string | Buffer): Promise<void>;
  /** The next reply with this id (null: the next id-less error). */
  reply(id: string | number | null, timeoutMs?: number): Promise<RawReply>;
  /** A request as JSON, then its reply. */
  request(id: string | number, method: string, params?: unknown, timeoutMs?: number): Promise<RawReply>;
  close(): Promise<void>;
}

/** The server on raw pipes, initialized, for frames an SDK client would never send. */
export async function startRaw(cwd: string, extraArgs: string[] = []): Promise<RawServer> {
  const child = spawn(process.execPath, [CLI, 'mcp', '--cwd', cwd, ...withStateDir(extraArgs)], {
    stdio: 'pipe',
  });
  trackPid(child.pid);
  const replies: RawReply[] = [];
  const waiters = new Set<() => void>();
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    let newline = buffered.indexOf('\n');
    while (newline !== -1) {
      replies.push(JSON.parse(buffered.slice(0, newline)) as RawReply);
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf('\n');
    }
    for (const wake of [...waiters]) wake();
  });
  child.stderr.resume();
  const write = (data: string | Buffer) =>
    new Promise<void>((resolve, reject) =>
      child.stdin.write(data, (error) => (error ? reject(error) : resolve())),
    );
  const reply = (id: string | number | null, timeoutMs = 30_000) =>
    new Promise<RawReply>((resolve, reject) => {
      const check = () => {
        const at = replies.findIndex((r) => r.id === id);
        if (at === -1) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(replies.splice(at, 1)[0]!);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no reply with id ${JSON.stringify(id)} within ${timeoutMs} ms`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  const server: RawServer = {
    child,
    pid: child.pid!,
    write,
    reply,
    async request(id, method, params, timeoutMs) {
      await write(
        `${JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) })}\n`,
      );
      return reply(id, timeoutMs);
    },
    async close() {
      child.stdin.end();
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    },
  };
  const init = await server.request('init', 'initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  });
  if (!init.result) throw new Error(`initialize failed: ${JSON.stringify(init)}`);
  await write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  return server;
}

/** Resident and peak resident memory of a process in MB (Linux: /proc/<pid>/status). */
export function memoryMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) =>
    Number(
      /^(\S+):\s+(\d+) kB$/m.exec(status.split('\n').find((l) => l.startsWith(`${name}:`)) ?? '')?.[2] ??
        Number.NaN,
    ) / 1024;
  return { rss: field('VmRSS'), peak: field('VmHWM') };
}
