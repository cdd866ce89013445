// Sessions as resources through the built `procmux mcp` and the SDK client: templates, the
// live list, reads, and subscriptions that notify on new output (coalesced) and on the end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  type CallToolResult,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { assertNoLeakedProcesses, trackPid, waitFor } from '@procmux/test-utils';
import type { ToolResultData } from '@procmux/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

let root: string;
let client: Client;
/** Every notifications/resources/updated, with when it arrived. */
const updates: { uri: string; at: number }[] = [];
let listChanges = 0;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'procmux-resources-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--cwd', root],
    stderr: 'pipe',
  });
  client = new Client({ name: 'procmux-resources', version: '1.0.0' });
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    updates.push({ uri: n.params.uri, at: performance.now() });
  });
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
    listChanges++;
  });
  await client.connect(transport);
  trackPid(transport.pid ?? undefined);
});
afterAll(async () => {
  await client.close();
  rmSync(root, { recursive: true, force: true });
  await assertNoLeakedProcesses();
});

async function call(name: 'exec' | 'process', args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return result.structuredContent as ToolResultData;
}
const of = (uri: string) => updates.filter((u) => u.uri === uri);

describe('sessions as resources', () => {
  it('lists the log and screen templates', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'procmux://session/{session_id}/log',
      'procmux://session/{session_id}/screen',
    ]);
  });

  it('names live sessions, reads them, and notifies a subscriber of new output and of the end', async () => {
    const changesBefore = listChanges;
    const daemon = await call('exec', { command: 'while read l; do echo "got $l"; done', mode: 'daemon' });
    const id = daemon.session!.id;
    const uri = `procmux://session/${id}/log`;
    const repl = await call('exec', { command: 'PS1="ready> " bash --norc -i', mode: 'session' });
    const replId = repl.session!.id;
    // Each start told the client the list changed.
    await waitFor(() => listChanges >= changesBefore + 2, 5_000, 'resources/list_changed for two starts');
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(
      [
        'ui://procmux/terminal',
        uri,
        `procmux://session/${replId}/log`,
        `procmux://session/${replId}/screen`,
      ].sort(),
    );
    expect(resources.map((r) => r.uri)).not.toContain(`procmux://session/${id}/screen`);

    await client.subscribeResource({ uri });
    const latencies: number[] = [];
    for (const word of ['one', 'two', 'three']) {
      const before = of(uri).length;
      const sent = performance.now();
      await call('process', { action: 'write', session_id: id, data: `${word}\n` });
      await waitFor(() => of(uri).length > before, 5_000, `an update after ${word}`);
      latencies.push(of(uri)[before]!.at - sent);
      // Spaced past the coalescing window, so each write is a notification of its own.
      await waitFor(() => performance.now() - sent > 150, 1_000, 'the window');
    }
    process.stderr.write(
      `resource update latency (write call to notification): ${latencies.map((l) => l.toFixed(1)).join(', ')} ms\n`,
    );
    for (const latency of latencies) expect(latency).toBeLessThan(1_000);
    const read = await client.readResource({ uri });
    expect(read.contents[0]).toMatchObject({ uri, text: 'got one\ngot two\ngot three' });
    const page = await client.readResource({ uri: `${uri}?offset=1&limit=1` });
    expect(page.contents[0]).toMatchObject({ text: 'got two' });

    const ended = of(uri).length;
    await call('process', { action: 'kill', session_id: id });
    await waitFor(() => of(uri).length > ended, 5_000, 'an update at the end');
    expect((await client.listResources()).resources.map((r) => r.uri)).not.toContain(uri);

    const screen = await client.readResource({ uri: `procmux://session/${replId}/screen` });
    expect((screen.contents[0] as { text: string }).text).toMatch(/^ready> *$/m);
    await call('process', { action: 'kill', session_id: replId });
  });

  it('sends at most one notification per 100 ms per resource during a flood', async () => {
    const flood = await call('exec', {
      command: 'read go; for i in $(seq 1 60); do echo line $i; sleep 0.01; done; read done',
      mode: 'daemon',
    });
    const uri = `procmux://session/${flood.session!.id}/log`;
    await client.subscribeResource({ uri });
    await call('process', { action: 'write', session_id: flood.session!.id, data: 'go\n' });
    await call('process', { action: 'wait_for', session_id: flood.session!.id, pattern: '^line 60$' });
    const times = of(uri).map((u) => u.at);
    expect(times.length).toBeGreaterThan(1);
    // 60 lines 10 ms apart: uncoalesced that is ~60 notifications. The server spaces them
    // 100 ms apart; the client sees the spacing blurred by the pipe, so count, not gaps.
    const span = times.at(-1)! - times[0]!;
    process.stderr.write(`flood: ${times.length} notifications over ${span.toFixed(0)} ms\n`);
    expect(times.length).toBeLessThanOrEqual(Math.ceil(span / 100) + 2);
    await call('process', { action: 'kill', session_id: flood.session!.id });
  });

  it('refuses an unknown session and a bad log query', async () => {
    await expect(client.readResource({ uri: 'procmux://session/proc_nope/log' })).rejects.toThrow(
      /no session with id/,
    );
    const d = await call('exec', { command: 'cat', mode: 'daemon' });
    await expect(
      client.readResource({ uri: `procmux://session/${d.session!.id}/log?lines=5` }),
    ).rejects.toThrow(/takes \?offset=N&limit=M/);
    await call('process', { action: 'kill', session_id: d.session!.id });
  });
});
