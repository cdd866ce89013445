// `procmux mcp --sandbox` driven by the SDK client, with a fake HOME holding fake secrets, its
// own state dir, and helpers for what the escape tests check on the host afterwards.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { trackPid } from '@procmux/test-utils';
import { CLI } from '../mcp/server.js';

export interface SandboxedServer {
  root: string;
  workspace: string;
  home: string;
  stateDir: string;
  /** The `procmux mcp` process. */
  serverPid: number;
  /** What the server told the client at initialize. */
  instructions: string;
  call(
    name: string,
    args: Record<string, unknown>,
  ): Promise<{ text: string; isError: boolean; pid?: number }>;
  close(): Promise<void>;
}

/** A scratch root with a workspace, a HOME with fake secrets, and a state dir. */
export function sandboxRoot(): { root: string; workspace: string; home: string; stateDir: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'pm-sandbox-')));
  const workspace = join(root, 'ws');
  const home = join(root, 'home');
  const stateDir = join(root, 'state');
  for (const dir of [workspace, join(home, '.ssh'), stateDir]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_ed25519'), 'FAKE-PRIVATE-KEY-7f3a\n');
  writeFileSync(join(home, '.bashrc'), '# original\n');
  return { root, workspace, home, stateDir };
}

/** `procmux mcp --sandbox` on `dirs` (new ones by default; a second server on the same ones recovers). */
export async function startSandboxed(
  extraArgs: string[] = [],
  dirs: ReturnType<typeof sandboxRoot> = sandboxRoot(),
): Promise<SandboxedServer> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--cwd', dirs.workspace, '--state-dir', dirs.stateDir, '--sandbox', ...extraArgs],
    env: { ...(process.env as Record<string, string>), HOME: dirs.home },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', () => {});
  const client = new Client({ name: 'procmux-sandbox-e2e', version: '1.0.0' });
  await client.connect(transport);
  trackPid(transport.pid!);
  return {
    ...dirs,
    serverPid: transport.pid!,
    instructions: client.getInstructions() ?? '',
    async call(name, args) {
      const result = (await client.callTool({ name, arguments: args }, undefined, {
        timeout: 60_000,
      })) as CallToolResult;
      const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
      const data = result._meta?.['procmux/result'] as { session?: { pid?: number } } | undefined;
      const pid = data?.session?.pid;
      return { text, isError: result.isError === true, ...(pid !== undefined ? { pid } : {}) };
    },
    async close() {
      await client.close();
      rmSync(dirs.root, { recursive: true, force: true });
    },
  };
}

/** An HTTP server on 127.0.0.1 answering `body`, counting the requests it got. */
export async function hostHttp(
  body: string,
): Promise<{ port: number; requests: () => number; close(): Promise<void> }> {
  let requests = 0;
  const server: Server = createServer((_req, res) => {
    requests += 1;
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    requests: () => requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The session id a result names. */
export function sessionId(text: string): string {
  const id = /(proc_[a-z2-9]{7})/.exec(text)?.[1];
  if (!id) throw new Error(`no session id in: ${text}`);
  return id;
}
