// `procmux mcp --http`: the built CLI over Streamable HTTP with the SDK client, as a host on
// another machine would reach it: token and Host/Origin checks, two clients at once, each
// with its own sessions, the server outliving a client, and every session dying with it.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { assertNoLeakedProcesses, isAlive, trackPid, waitFor, withoutUsage } from '@procmux/test-utils';
import type { ToolResultData } from '@procmux/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

let root: string;
let server: ChildProcess;
let stderr = '';
let url: string;
let token: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'procmux-http-'));
  server = spawn(process.execPath, [CLI, 'mcp', '--http', '0', '--cwd', root], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  trackPid(server.pid);
  server.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const line = await waitFor(
    () => /^procmux mcp http: (\S+) bearer=(\S+)$/m.exec(stderr),
    15_000,
    'the URL line',
  );
  url = line![1]!;
  token = line![2]!;
});
afterAll(async () => {
  if (server.exitCode === null) server.kill('SIGTERM');
  rmSync(root, { recursive: true, force: true });
  await assertNoLeakedProcesses();
});

async function connect(name: string): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

async function call(client: Client, name: 'exec' | 'process', args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return {
    text: (result.content[0] as { text: string }).text,
    data: result.structuredContent as ToolResultData,
  };
}

/** A raw POST with the headers given (node:http, so Host can be set). */
function post(headers: Record<string, string>): Promise<number> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
  });
}

describe('procmux mcp --http', () => {
  it('prints one line with the URL and the token, on loopback', () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(token).toMatch(/^[\w-]{32}$/);
  });

  it('answers 401 without the token and 403 for a foreign Origin or Host', async () => {
    const host = new URL(url).host;
    expect(await post({})).toBe(401);
    expect(await post({ authorization: 'Bearer wrong' })).toBe(401);
    expect(await post({ authorization: `Bearer ${token}`, origin: 'http://evil.example' })).toBe(403);
    expect(await post({ authorization: `Bearer ${token}`, host: `evil.example:${new URL(url).port}` })).toBe(
      403,
    );
    // The same request with the right headers gets past the guard (to the MCP layer).
    expect(await post({ authorization: `Bearer ${token}`, origin: `http://${host}` })).not.toBe(403);
    expect(stderr).toContain('refused a request (foreign Origin)');
  });

  it('serves two clients at once, each with its own sessions, and outlives a client', async () => {
    const [a, b] = await Promise.all([connect('a'), connect('b')]);
    const [sa, sb] = await Promise.all([
      call(a, 'exec', { command: 'cat', mode: 'daemon' }),
      call(b, 'exec', { command: 'cat', mode: 'daemon' }),
    ]);
    const idA = sa.data.session!.id;
    const idB = sb.data.session!.id;
    expect((await call(a, 'process', { action: 'list' })).data.sessions!.map((s) => s.id)).toEqual([idA]);
    expect((await call(b, 'process', { action: 'list' })).data.sessions!.map((s) => s.id)).toEqual([idB]);
    const foreign = await call(b, 'process', { action: 'poll', session_id: idA });
    expect(foreign.data.error?.code).toMatch(/^ERR_PROCESS_(OWNERSHIP|NOT_FOUND)$/);
    expect((await b.listResources()).resources.map((r) => r.uri)).toEqual([
      'ui://procmux/terminal',
      `procmux://session/${idB}/log`,
    ]);

    await a.close();
    // B goes on after A left; A's daemon lives on until the server stops.
    await call(b, 'process', { action: 'write', session_id: idB, data: 'still here\n' });
    const echoed = await call(b, 'process', { action: 'wait_for', session_id: idB, pattern: 'still here' });
    expect(echoed.data.wait?.outcome).toBe('matched');
    const c = await connect('c');
    expect(withoutUsage((await call(c, 'exec', { command: 'echo third' })).text)).toBe(
      'third\n\nProcess exited with code 0.',
    );
    await c.close();
    expect(isAlive(sa.data.session!.pid!)).toBe(true);

    const pids = [sa.data.session!.pid!, sb.data.session!.pid!];
    await b.close();
    server.kill('SIGTERM');
    await waitFor(() => server.exitCode !== null, 15_000, 'the server to exit');
    expect(server.exitCode).toBe(0);
    for (const pid of pids) expect(isAlive(pid)).toBe(false);
  });
});
