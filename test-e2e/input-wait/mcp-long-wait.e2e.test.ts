import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { assertNoLeakedProcesses } from '@procmux/test-utils';
import { afterAll, expect, it } from 'vitest';
import { type SdkServer, startSdk, workspace } from '../mcp/server.js';

let server: SdkServer | undefined;
afterAll(async () => {
  await server?.close();
  await assertNoLeakedProcesses();
});

const text = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

it('a 40 s wait_for outlives a 10 s request timeout through progress, and a cancel ends a wait at once', async () => {
  server = await startSdk(workspace());
  const started = (await server.client.callTool({
    name: 'exec',
    arguments: { command: 'sleep 40; echo ready; sleep 60', mode: 'daemon' },
  })) as CallToolResult;
  const id = (started._meta?.['procmux/result'] as { session?: { id: string } } | undefined)?.session?.id;
  expect(id, text(started)).toBeTruthy();
  let progress = 0;
  const began = Date.now();
  const waited = (await server.client.callTool(
    {
      name: 'process',
      arguments: { action: 'wait_for', session_id: id, pattern: '^ready$', timeout: 120_000 },
    },
    undefined,
    { timeout: 10_000, resetTimeoutOnProgress: true, onprogress: () => progress++ },
  )) as CallToolResult;
  expect(text(waited)).toContain('Matched /^ready$/: "ready".');
  expect(Date.now() - began).toBeGreaterThan(30_000);
  // At least one report per 10 s of the wait.
  console.log(`progress notifications: ${progress} over ${Date.now() - began} ms`);
  expect(progress).toBeGreaterThanOrEqual(4);

  const controller = new AbortController();
  const cancelledAt = new Promise<number>((resolve) =>
    setTimeout(() => {
      controller.abort();
      resolve(Date.now());
    }, 1_000),
  );
  const call = server.client.callTool(
    { name: 'process', arguments: { action: 'wait_for', session_id: id, exit: true, timeout: 600_000 } },
    undefined,
    { signal: controller.signal, timeout: 700_000 },
  );
  await expect(call).rejects.toThrow();
  expect(Date.now() - (await cancelledAt)).toBeLessThan(5_000);
  // The server is still answering after the cancel; the session goes on until killed.
  const killed = text(
    (await server.client.callTool({
      name: 'process',
      arguments: { action: 'kill', session_id: id },
    })) as CallToolResult,
  );
  expect(killed).toMatch(/Process (killed|exited)/);
}, 120_000);
