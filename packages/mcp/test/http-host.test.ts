// The HTTP transport in this process (http.test.ts drives the built CLI): serveHttp on port 0
// with the SDK client over Streamable HTTP. The guard (token, Host, Origin, path, MCP session),
// several clients each with their own sessions and resources, a persisted session making the
// state dir late and the dir going with it, and close() killing every session.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { assertNoLeakedProcesses, isAlive, waitFor } from '@procmux/test-utils';
import type { ToolResultData } from '@procmux/tools';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type HttpServeHandle, serveHttp } from '../src/http-serve.js';

let root: string;
const handles: HttpServeHandle[] = [];
const clients: Client[] = [];
const logs: string[] = [];

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'procmux-http-host-'));
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => {});
  for (const handle of handles.splice(0)) await handle.close();
});
afterAll(async () => {
  rmSync(root, { recursive: true, force: true });
  await assertNoLeakedProcesses();
});

async function serve(extra: { stateDir?: string; host?: string } = {}): Promise<HttpServeHandle> {
  const handle = await serveHttp({
    cwd: root,
    http: { port: 0, host: extra.host ?? '127.0.0.1' },
    ...(extra.stateDir ? { stateDir: extra.stateDir } : {}),
    log: (line) => logs.push(line),
  });
  handles.push(handle);
  return handle;
}

async function connect(handle: HttpServeHandle, name: string): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(handle.url), {
      requestInit: { headers: { Authorization: `Bearer ${handle.token}` } },
    }),
  );
  clients.push(client);
  return client;
}

async function call(client: Client, name: 'exec' | 'process', args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return {
    text: (result.content[0] as { text: string }).text,
    isError: result.isError === true,
    data: result.structuredContent as ToolResultData,
  };
}

/** A raw POST (node:http, so Host can be set): the status and body. */
function post(
  url: string,
  headers: Record<string, string>,
  path?: string,
): Promise<{ status: number; body: string; auth: string | undefined }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: path ?? target.pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body, auth: res.headers['www-authenticate'] as string }),
        );
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
  });
}

describe('serveHttp in process', () => {
  it('guards every request: token, Host, Origin, the /mcp path and a known MCP session', async () => {
    const handle = await serve();
    const { url, token } = handle;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(logs).toContain(`procmux mcp http: ${url} bearer=${token}`);
    const bearer = { authorization: `Bearer ${token}` };
    const missing = await post(url, {});
    expect(missing).toMatchObject({ status: 401, auth: 'Bearer' });
    expect(JSON.parse(missing.body).error.message).toBe('missing bearer token');
    expect((await post(url, { authorization: 'Bearer nope' })).body).toContain('wrong bearer token');
    expect((await post(url, { authorization: token })).status).toBe(401);
    const port = new URL(url).port;
    expect((await post(url, { ...bearer, origin: 'http://evil.example' })).status).toBe(403);
    const foreignHost = await post(url, { ...bearer, host: `evil.example:${port}` });
    expect(foreignHost.status).toBe(403);
    expect(foreignHost.body).toContain('unexpected Host');
    expect(logs).toContain('procmux mcp http: refused a request (foreign Origin)');
    // Every loopback name of this port passes the Host check.
    const other = await post(url, { ...bearer, host: `localhost:${port}` }, '/other');
    expect(other.status).toBe(404);
    expect(other.body).toContain('no endpoint /other; use /mcp');
    const ended = await post(url, { ...bearer, 'mcp-session-id': 'not-a-session' });
    expect(ended.status).toBe(404);
    expect(ended.body).toContain('unknown or ended MCP session; initialize again');
    // The right headers reach the MCP layer, which wants an initialize first.
    expect((await post(url, { ...bearer, origin: `http://127.0.0.1:${port}` })).status).toBe(400);
  });

  it('serves two clients with their own sessions and resources; close() kills every session', async () => {
    const handle = await serve();
    const [a, b] = await Promise.all([connect(handle, 'a'), connect(handle, 'b')]);
    const updates: string[] = [];
    a.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updates.push(n.params.uri);
    });
    const sa = await call(a, 'exec', { command: 'while read l; do echo "got $l"; done', mode: 'daemon' });
    const sb = await call(b, 'exec', { command: 'cat', mode: 'daemon' });
    const idA = sa.data.session!.id;
    const idB = sb.data.session!.id;
    expect((await call(a, 'process', { action: 'list' })).data.sessions!.map((s) => s.id)).toEqual([idA]);
    expect((await b.listResources()).resources.map((r) => r.uri)).toEqual([
      'ui://procmux/terminal',
      `procmux://session/${idB}/log`,
    ]);
    expect((await call(b, 'process', { action: 'poll', session_id: idA })).isError).toBe(true);
    const uri = `procmux://session/${idA}/log`;
    await a.subscribeResource({ uri });
    await call(a, 'process', { action: 'write', session_id: idA, data: 'one\n' });
    await waitFor(() => updates.includes(uri), 5_000, 'an update after the write');
    await waitFor(
      async () => ((await a.readResource({ uri })).contents[0] as { text: string }).text === 'got one',
      5_000,
      'the log resource to show the line',
    );
    await expect(b.readResource({ uri })).rejects.toThrow(/belongs to another owner|no session/);
    // A third client comes and goes; the others go on.
    const c = await connect(handle, 'c');
    expect((await call(c, 'exec', { command: 'echo third' })).text).toMatch(/^third\n/);
    await c.close();
    expect((await call(b, 'process', { action: 'list' })).data.sessions!.map((s) => s.id)).toEqual([idB]);
    const pids = [sa.data.session!.pid!, sb.data.session!.pid!];
    await handle.close('the test is done');
    await handle.closed;
    expect(logs.some((line) => /the test is done; killing every session/.test(line))).toBe(true);
    for (const pid of pids) expect(isAlive(pid)).toBe(false);
  });

  it('serves a session as resources: screen, pages, refusals, coalesced updates, unsubscribe', async () => {
    const handle = await serve();
    const client = await connect(handle, 'resources');
    const updates: { uri: string; at: number }[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updates.push({ uri: n.params.uri, at: performance.now() });
    });
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'procmux://session/{session_id}/log',
      'procmux://session/{session_id}/screen',
    ]);
    const repl = await call(client, 'exec', { command: 'PS1="ready> " bash --norc -i', mode: 'session' });
    const replId = repl.data.session!.id;
    const pipe = await call(client, 'exec', {
      command: 'read go; for i in $(seq 1 40); do echo "line $i"; sleep 0.01; done; read done',
      mode: 'daemon',
    });
    const pipeId = pipe.data.session!.id;
    const log = `procmux://session/${pipeId}/log`;
    expect((await client.listResources()).resources.map((r) => r.uri).sort()).toEqual(
      [
        'ui://procmux/terminal',
        log,
        `procmux://session/${replId}/log`,
        `procmux://session/${replId}/screen`,
      ].sort(),
    );
    await waitFor(
      async () =>
        /^ready> *$/m.test(
          (
            (await client.readResource({ uri: `procmux://session/${replId}/screen` })).contents[0] as {
              text: string;
            }
          ).text,
        ),
      10_000,
      'the prompt on the screen resource',
    );
    await expect(client.readResource({ uri: `procmux://session/${pipeId}/screen` })).rejects.toThrow(
      /runs on pipes and has no screen/,
    );
    await expect(client.readResource({ uri: 'procmux://session/proc_nope/log' })).rejects.toThrow(
      /no session with id/,
    );
    await expect(client.readResource({ uri: 'procmux://elsewhere' })).rejects.toThrow(/unknown resource/);
    await expect(client.readResource({ uri: `${log}?lines=5` })).rejects.toThrow(/takes \?offset=N&limit=M/);

    await client.subscribeResource({ uri: log });
    await client.subscribeResource({ uri: log });
    await call(client, 'process', { action: 'write', session_id: pipeId, data: 'go\n' });
    await call(client, 'process', { action: 'wait_for', session_id: pipeId, pattern: '^line 40$' });
    const page = await client.readResource({ uri: `${log}?offset=9&limit=2` });
    expect((page.contents[0] as { text: string }).text).toBe('line 10\nline 11');
    const times = updates.filter((u) => u.uri === log).map((u) => u.at);
    expect(times.length).toBeGreaterThan(0);
    // 40 lines 10 ms apart would be ~40 notifications uncoalesced; one per 100 ms at most.
    const span = times.at(-1)! - times[0]!;
    expect(times.length).toBeLessThanOrEqual(Math.ceil(span / 100) + 2);
    // The end is one more notification.
    const before = updates.length;
    await call(client, 'process', { action: 'kill', session_id: pipeId });
    await waitFor(() => updates.length > before, 5_000, 'the update at the end');
    expect(updates.at(-1)!.uri).toBe(log);
    // Unsubscribed, the REPL's output notifies nobody.
    const screen = `procmux://session/${replId}/screen`;
    await client.subscribeResource({ uri: screen });
    await client.unsubscribeResource({ uri: screen });
    await call(client, 'process', { action: 'write', session_id: replId, data: 'echo hi\n' });
    await call(client, 'process', { action: 'wait_for', session_id: replId, pattern: '^hi' });
    expect(updates.filter((u) => u.uri === screen)).toEqual([]);
    await call(client, 'process', { action: 'kill', session_id: replId });
  });

  it('makes its state dir only for a persisted session, and removes it once nothing outlives the server', async () => {
    const stateDir = join(root, '..', `${root.split('/').pop()}-state`);
    rmSync(stateDir, { recursive: true, force: true });
    try {
      const handle = await serve({ stateDir });
      const client = await connect(handle, 'persist');
      expect((await call(client, 'exec', { command: 'echo plain' })).text).toMatch(/^plain\n/);
      expect(existsSync(stateDir)).toBe(false);
      const started = await call(client, 'exec', { command: 'cat', mode: 'session', persist: true });
      expect(started.text).toMatch(/Persisted: it outlives this server\./);
      expect(readFileSync(join(stateDir, 'workspace'), 'utf8').trim()).toBe(root);
      expect(existsSync(join(stateDir, 'state.sqlite'))).toBe(true);
      expect(existsSync(join(stateDir, 'server.lock'))).toBe(true);
      await call(client, 'process', { action: 'kill', session_id: started.data.session!.id });
      await handle.close();
      expect(existsSync(stateDir)).toBe(false);
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });

  it('warns on a host that is not loopback, and takes only that name as Host', async () => {
    const handle = await serve({ host: '0.0.0.0' });
    expect(handle.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/mcp$/);
    expect(logs.some((line) => /WARNING: --http-host 0\.0\.0\.0 is not loopback/.test(line))).toBe(true);
    const port = new URL(handle.url).port;
    const loopbackName = await post(
      `http://127.0.0.1:${port}/mcp`,
      { authorization: `Bearer ${handle.token}` },
      '/mcp',
    );
    expect(loopbackName.status).toBe(403);
  });

  it('fails when its port is taken, and leaves nothing open', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      await expect(
        serveHttp({ cwd: root, http: { port, host: '127.0.0.1' }, log: (line) => logs.push(line) }),
      ).rejects.toThrow(/EADDRINUSE/);
      expect(logs.some((line) => /could not listen; killing every session/.test(line))).toBe(true);
    } finally {
      blocker.close();
    }
  });
});
