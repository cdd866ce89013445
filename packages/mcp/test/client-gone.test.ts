// A client that dies (SIGKILLed, crashed) closes its ends of all three of the server's pipes
// at once, without a word. The server must still kill every session and exit. It did not: its
// first log line to the dead stderr failed with EPIPE, that failure became an uncaught error
// whose report, written to stderr again, failed the same way for ever (100% CPU, the session's
// `sleep 300` alive minutes later).
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertNoLeakedProcesses, isAlive, testTmpdir, trackPid, waitFor } from '@procmux/test-utils';
import { afterAll, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const LIBRARY = new URL('../dist/index.js', import.meta.url).href;
// A host that embeds the server with its defaults: no log of its own, no stderr listener.
const EMBEDDER = `import { serveStdio } from ${JSON.stringify(LIBRARY)};
const handle = await serveStdio({ cwd: process.argv[1] });
await handle.closed;`;
const servers = {
  'procmux mcp': () => [CLI, 'mcp', '--cwd', root],
  'a host embedding serveStdio': () => ['--input-type=module', '-e', EMBEDDER, root],
};
const root = mkdtempSync(join(testTmpdir(), 'procmux-client-gone-'));

afterAll(async () => {
  rmSync(root, { recursive: true, force: true });
  await assertNoLeakedProcesses();
});

/** JSON-RPC over the server's stdio, line by line: what an MCP client's transport sends. */
function rpc(server: ChildProcessWithoutNullStreams) {
  const replies = new Map<number, Record<string, unknown>>();
  let buffer = '';
  server.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const message = JSON.parse(buffer.slice(0, nl)) as { id?: number; result?: Record<string, unknown> };
      buffer = buffer.slice(nl + 1);
      if (message.id !== undefined) replies.set(message.id, message.result ?? {});
    }
  });
  let id = 0;
  return {
    notify: (method: string) => server.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`),
    async call(method: string, params: Record<string, unknown>) {
      const mine = ++id;
      server.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: mine, method, params })}\n`);
      await waitFor(() => replies.has(mine), 15_000, `the reply to ${method}`);
      return replies.get(mine)!;
    },
  };
}

describe.skipIf(process.platform === 'win32')('a client that dies without closing', () => {
  it.each([
    ['procmux mcp', 'all three at once'],
    ['procmux mcp', 'stderr first'],
    ['a host embedding serveStdio', 'all three at once'],
    ['a host embedding serveStdio', 'stderr first'],
  ] as const)(
    '%s: its pipes closing (%s) stop the server, and every session dies with it',
    async (kind, order) => {
      const server = spawn(process.execPath, servers[kind](), { stdio: 'pipe' });
      trackPid(server.pid);
      const exited = new Promise<[number | null, string | null]>((resolve) =>
        server.once('exit', (code, signal) => resolve([code, signal])),
      );
      const client = rpc(server);
      await client.call('initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'procmux-client-gone', version: '1.0.0' },
      });
      client.notify('notifications/initialized');
      const started = await client.call('tools/call', {
        name: 'exec',
        arguments: { command: 'sleep 300', mode: 'daemon' },
      });
      const session = (started._meta as Record<string, { session: { pid: number } }>)['procmux/result']!
        .session;
      expect(isAlive(session.pid)).toBe(true);

      if (order === 'stderr first') {
        server.stderr.destroy();
        // A log line (this call's) goes to the dead stderr while the client is still there.
        await client.call('tools/call', { name: 'process', arguments: { action: 'list' } });
      }
      server.stdin.destroy();
      server.stdout.destroy();
      server.stderr.destroy();
      await waitFor(
        () => !isAlive(server.pid!) && !isAlive(session.pid),
        15_000,
        'the server and its session to end',
      );
      // It stopped as asked (the client went), not by an uncaught error.
      expect(await exited).toEqual([0, null]);
    },
  );
});
