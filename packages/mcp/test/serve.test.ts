import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isProcmuxError } from '@procmux/core-types';
import { assertNoLeakedProcesses, isAlive, waitFor, withoutUsage } from '@procmux/test-utils';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RESULT_META_KEY, type ServeHandle, serveStdio } from '../src/index.js';
import { StreamClientTransport } from './stream-transport.js';

let root: string;
let logs: string[];
let toServer: PassThrough;
let fromServer: PassThrough;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'procmux-serve-'));
  logs = [];
  toServer = new PassThrough();
  fromServer = new PassThrough();
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});
afterAll(async () => {
  await assertNoLeakedProcesses();
});

async function serve(
  options: { maxSessions?: number; pty?: boolean } = {},
): Promise<{ handle: ServeHandle; client: Client }> {
  const handle = await serveStdio({
    cwd: root,
    stdin: toServer,
    stdout: fromServer,
    log: (l) => logs.push(l),
    ...options,
  });
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(new StreamClientTransport(toServer, fromServer));
  return { handle, client };
}

async function startDaemon(client: Client): Promise<number> {
  const r = (await client.callTool({
    name: 'exec',
    arguments: { command: 'sleep 30', mode: 'daemon' },
  })) as CallToolResult;
  const data = r._meta?.[RESULT_META_KEY] as { session: { pid: number } };
  return data.session.pid;
}

describe('serveStdio', () => {
  it('says where it serves, on the log and not on stdout', async () => {
    const { handle } = await serve();
    expect(logs.at(-1)).toMatch(
      /^procmux mcp: serving the exec and process tools on stdio \(workspace .*procmux-serve-/,
    );
    await handle.close();
  });

  it('kills every session when the client closes stdin', async () => {
    const { handle, client } = await serve();
    const pid = await startDaemon(client);
    expect(isAlive(pid)).toBe(true);
    await client.close();
    await handle.closed;
    expect(isAlive(pid)).toBe(false);
    expect(logs).toContain('procmux mcp: the client closed stdin; killing every session');
  });

  it('kills every session on close(), once however often it is called', async () => {
    const { handle, client } = await serve();
    const pid = await startDaemon(client);
    const first = handle.close('got SIGTERM');
    expect(handle.close()).toBe(first);
    await first;
    await handle.closed;
    expect(isAlive(pid)).toBe(false);
    expect(logs.filter((l) => l.includes('killing every session'))).toEqual([
      'procmux mcp: got SIGTERM; killing every session',
    ]);
  });

  it('stops when stdout breaks (the client vanished)', async () => {
    const { handle, client } = await serve();
    const pid = await startDaemon(client);
    fromServer.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    await handle.closed;
    expect(isAlive(pid)).toBe(false);
  });

  it('answers a request over 10 MiB with an error naming the limit, and keeps serving and its sessions', async () => {
    const { handle, client } = await serve();
    const pid = await startDaemon(client);
    const replies: string[] = [];
    fromServer.on('data', (chunk: Buffer) => replies.push(chunk.toString()));
    const huge = JSON.stringify({
      method: 'tools/call',
      params: { name: 'exec', arguments: { command: `echo ${'x'.repeat(11 * 1024 * 1024)}` } },
      jsonrpc: '2.0',
      id: 'huge-1',
    });
    toServer.write(`${huge}\n`);
    await waitFor(() => replies.join('').includes('"huge-1"'), 10_000, 'the error for the huge request');
    const reply = JSON.parse(
      replies
        .join('')
        .split('\n')
        .find((l) => l.includes('"huge-1"'))!,
    );
    expect(reply).toEqual({
      jsonrpc: '2.0',
      id: 'huge-1',
      error: {
        code: -32600,
        message: expect.stringContaining(
          `message of ${Buffer.byteLength(huge).toLocaleString('en-US')} bytes is over this server's limit of 8,388,608 bytes per message`,
        ),
      },
    });
    expect(isAlive(pid)).toBe(true);
    const after = (await client.callTool({
      name: 'exec',
      arguments: { command: 'echo still here' },
    })) as CallToolResult;
    expect(withoutUsage((after.content[0] as { text: string }).text)).toBe(
      'still here\n\nProcess exited with code 0.',
    );
    expect(logs).toContain(
      `procmux mcp: refused a ${Buffer.byteLength(huge).toLocaleString('en-US')}-byte message (limit 8,388,608 bytes)`,
    );
    await handle.close();
    expect(isAlive(pid)).toBe(false);
  });

  it('answers malformed lines with JSON-RPC errors and goes on', async () => {
    const { handle, client } = await serve();
    const replies: string[] = [];
    // First in line: the test client's own reader throws on an id-less reply.
    fromServer.prependListener('data', (chunk: Buffer) => replies.push(chunk.toString()));
    toServer.write('{"jsonrpc":"1.0","id":"old","method":"tools/list"}\n');
    toServer.write('{"jsonrpc":"2.0","id":"noname","method":"tools/call","params":{"arguments":{}}}\n');
    toServer.write('not json at all\n');
    await waitFor(() => replies.join('').split('\n').length > 3, 10_000, 'three answers');
    const answers = replies
      .join('')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(answers).toEqual([
      {
        jsonrpc: '2.0',
        id: 'old',
        error: { code: -32600, message: expect.stringContaining('"jsonrpc" must be "2.0"') },
      },
      {
        jsonrpc: '2.0',
        id: 'noname',
        error: { code: -32602, message: expect.stringContaining('params.name') },
      },
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: expect.stringContaining('not valid JSON') },
      },
    ]);
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual([
      'exec',
      'process',
      'procmux_terminal',
    ]);
    await handle.close();
  });

  it('refuses terminal sessions with --no-pty', async () => {
    const { handle, client } = await serve({ pty: false });
    const r = (await client.callTool({
      name: 'exec',
      arguments: { command: 'python3 -i', mode: 'session' },
    })) as CallToolResult;
    expect(r.isError).toBe(true);
    expect((r.content[0] as { text: string }).text).toContain('ERR_PROCESS_PTY_UNSUPPORTED');
    await handle.close();
  });

  it('holds the session cap it was given', async () => {
    const { handle, client } = await serve({ maxSessions: 1 });
    await startDaemon(client);
    const r = (await client.callTool({
      name: 'exec',
      arguments: { command: 'sleep 30', mode: 'daemon' },
    })) as CallToolResult;
    expect((r.content[0] as { text: string }).text).toContain('ERR_PROCESS_LIMIT');
    await handle.close();
  });

  it('refuses a workspace that does not exist before serving', async () => {
    const listening = process.stderr.listenerCount('error');
    await expect(
      serveStdio({ cwd: join(root, 'missing'), stdin: toServer, stdout: fromServer }),
    ).rejects.toSatisfy((error) => isProcmuxError(error, 'ERR_PROCESS_POLICY'));
    expect(process.stderr.listenerCount('error')).toBe(listening);
  });

  it("with no log of the host's, hears stderr's errors while it serves, and only then", async () => {
    const listening = process.stderr.listenerCount('error');
    const handle = await serveStdio({ cwd: root, stdin: toServer, stdout: fromServer });
    expect(process.stderr.listenerCount('error')).toBe(listening + 1);
    // What a dead client's stderr does to a log line: heard, not thrown.
    const epipe = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
    expect(process.stderr.emit('error', epipe)).toBe(true);
    await handle.close();
    expect(process.stderr.listenerCount('error')).toBe(listening);
  });
});
