// A recording made through the tools of `procmux mcp` replays, in a headless screen, to the
// screen the session ended with.
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { TerminalScreen } from '@procmux/screen';
import { assertNoLeakedProcesses, trackPid } from '@procmux/test-utils';
import type { ToolResultData } from '@procmux/tools';
import { afterAll, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

afterAll(async () => {
  await assertNoLeakedProcesses();
});

it('process action=record writes an asciicast that replays to the same final screen', async () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'procmux-record-')));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--cwd', root],
  });
  const client = new Client({ name: 'procmux-record', version: '1.0.0' });
  await client.connect(transport);
  trackPid(transport.pid ?? undefined);
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    return {
      text: (result.content[0] as { text: string }).text,
      data: result._meta?.['procmux/result'] as ToolResultData,
    };
  };
  try {
    const started = await call('exec', { command: 'python3 -q -i', mode: 'session' });
    const id = started.data.session!.id;
    // exec's first screen may already hold the prompt; wait_for only sees output after it.
    if (!/^>>>/m.test(started.text))
      await call('process', { action: 'wait_for', session_id: id, pattern: '>>> ?$' });
    await call('process', {
      action: 'paste',
      session_id: id,
      text: 'for i in range(60): print("\\x1b[33mline\\x1b[0m", i, "é✓")',
    });
    await call('process', { action: 'submit', session_id: id });
    await call('process', { action: 'submit', session_id: id });
    await call('process', { action: 'wait_for', session_id: id, pattern: 'line 59 é✓\\n>>>' });
    // log pages the ANSI-stripped transcript; for these plain prints it is the screen, but for
    // trailing blanks (a rendered screen right-trims its lines).
    const screen = rightTrim(
      (await call('process', { action: 'log', session_id: id, limit: 100_000 })).data.output,
    );

    const recorded = await call('process', { action: 'record', session_id: id, path: 'repl.cast' });
    expect(recorded.data.recording?.path).toBe(join(root, 'repl.cast'));
    const [head, ...events] = readFileSync(join(root, 'repl.cast'), 'utf8').trimEnd().split('\n');
    const header = JSON.parse(head!) as { version: number; width: number; height: number };
    expect(header).toMatchObject({ version: 2, width: 120, height: 40 });
    const replay = new TerminalScreen({ cols: header.width, rows: header.height, scrollback: 5_000 });
    for (const line of events) {
      const [, kind, data] = JSON.parse(line) as [number, string, string];
      expect(kind).toBe('o');
      replay.feed(data);
    }
    expect(await replay.renderFull()).toBe(screen);
    replay.dispose();
  } finally {
    await client.close();
    rmSync(root, { recursive: true, force: true });
  }
});

function rightTrim(text: string | undefined): string {
  return (text ?? '').replace(/[ \t]+$/gm, '');
}
