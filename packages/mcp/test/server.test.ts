import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createProcessSessions, type ProcessSessions } from '@procmux/sessions';
import { assertNoLeakedProcesses, waitFor, withoutUsage } from '@procmux/test-utils';
import { createProcessTools, EXEC_PARAMETERS, PROCESS_PARAMETERS } from '@procmux/tools';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProcmuxServer, packageVersion, RESULT_META_KEY } from '../src/index.js';

let root: string;
let sessions: ProcessSessions;
let client: Client;

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'procmux-mcp-'));
  sessions = createProcessSessions({ cwd: root });
  const server = createProcmuxServer(createProcessTools(sessions));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  client = new Client({ name: 'test', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
});
afterEach(async () => {
  await client.close();
  await sessions.dispose();
  rmSync(root, { recursive: true, force: true });
});
afterAll(async () => {
  await assertNoLeakedProcesses();
});

const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;

describe('createProcmuxServer', () => {
  it('introduces itself with its version and instructions', () => {
    expect(client.getServerVersion()).toEqual({ name: 'procmux', version: packageVersion() });
    expect(client.getInstructions()).toContain('exec runs a command');
  });

  it('lists exec and process with their own JSON schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['exec', 'process']);
    expect(tools[0]!.inputSchema).toEqual(EXEC_PARAMETERS);
    expect(tools[1]!.inputSchema).toEqual(PROCESS_PARAMETERS);
    expect(tools[0]!.description).toContain("mode 'one_shot'");
    expect(tools[0]!.annotations).toMatchObject({ title: 'Run a command', destructiveHint: true });
  });

  it('returns the tool text, isError and the structured result under _meta', async () => {
    const result = (await client.callTool({
      name: 'exec',
      arguments: { command: 'echo hi' },
    })) as CallToolResult;
    expect(withoutUsage(text(result))).toBe('hi\n\nProcess exited with code 0.');
    expect(result.isError).toBe(false);
    expect(result._meta?.[RESULT_META_KEY]).toMatchObject({
      tool: 'exec',
      action: 'one_shot',
      session: { state: 'exited', exitCode: 0 },
    });
  });

  it('passes bad parameters through as an error text', async () => {
    const result = (await client.callTool({
      name: 'process',
      arguments: { action: 'jump' },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('Error [ERR_INVALID_OPTION]: action must be one of list');
  });

  it('treats missing arguments as an empty object', async () => {
    const result = (await client.callTool({ name: 'process' })) as CallToolResult;
    expect(text(result)).toContain('action is required');
  });

  it('refuses an unknown tool with a protocol error naming the tools it has', async () => {
    await expect(client.callTool({ name: 'shell', arguments: {} })).rejects.toThrow(
      'unknown tool "shell"; this server has exec, process',
    );
  });

  it('kills a one-shot command when the client cancels the call', async () => {
    const controller = new AbortController();
    const call = client.callTool({ name: 'exec', arguments: { command: 'sleep 30' } }, undefined, {
      signal: controller.signal,
    });
    await waitFor(() => sessions.list().length === 1, 10_000, 'the command to start');
    controller.abort();
    await expect(call).rejects.toThrow();
    await waitFor(() => sessions.list()[0]!.state === 'killed', 10_000, 'the command to be killed');
  });
});
