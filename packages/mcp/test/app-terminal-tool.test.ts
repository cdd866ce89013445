// The terminal app's tool in process, over a real registry and real terminals: the lease it
// takes is the view's (the model is refused meanwhile), it lapses when the app stops calling,
// and a read follows the output as the app shows it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createProcessSessions, type ProcessSessions } from '@procmux/sessions';
import { assertNoLeakedProcesses, leakedCgroups, waitFor } from '@procmux/test-utils';
import { createProcessTools } from '@procmux/tools';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ControlBoard } from '../src/app/control-board.js';
import { createTerminalTool } from '../src/app/terminal-tool.js';
import { createProcmuxServer } from '../src/index.js';

let root: string;
let sessions: ProcessSessions;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'procmux-app-tool-'));
  sessions = createProcessSessions({ cwd: root });
});
afterEach(async () => {
  await sessions.dispose();
  rmSync(root, { recursive: true, force: true });
});
afterAll(async () => {
  await assertNoLeakedProcesses();
  expect(leakedCgroups()).toEqual([]);
});

const never = new AbortController().signal;

describe('procmux_terminal', () => {
  it('gives the keyboard back to the model when the app stops calling', async () => {
    const session = await sessions.start({ command: 'cat', pty: true });
    const tool = createTerminalTool(sessions, undefined, new ControlBoard(300));
    const taken = await tool.call({ action: 'take', session_id: session.id, viewer: 'v1' }, never);
    expect(taken.structuredContent).toMatchObject({ control: 'mcp app v1', mine: true });
    await expect(session.paste('model')).rejects.toThrow(/a person \(mcp app v1\) has control/);
    // A second app instance is refused while the first holds it, and told who does.
    const other = await tool.call({ action: 'take', session_id: session.id, viewer: 'v2' }, never);
    expect(other.isError).toBe(true);
    expect((other.content[0] as { text: string }).text).toMatch(/^ERR_PROCESS_STATE: mcp app v1 already/);
    // Nothing more from v1: the lease lapses and the model types again.
    await waitFor(() => session.humanControl === null, 10_000, 'the idle lease to lapse');
    await session.paste('model again');
    const after = await tool.call({ action: 'attach', session_id: session.id, viewer: 'v1' }, never);
    expect(after.structuredContent).toMatchObject({ control: null, mine: false });
    tool.dispose();
  });

  it('reads the output after an offset, waiting for it, and says when the session ended', async () => {
    const session = await sessions.start({ command: 'cat', pty: true });
    const tool = createTerminalTool(sessions, undefined);
    const attach = await tool.call({ action: 'attach', session_id: session.id, viewer: 'v' }, never);
    const { offset } = attach.structuredContent as { offset: number };
    const reading = tool.call(
      { action: 'read', session_id: session.id, viewer: 'v', after: offset, timeout: 20_000 },
      never,
    );
    await session.paste('echoed');
    const read = (await reading).structuredContent as { data: string; offset: number; live: boolean };
    expect(read.data).toContain('echoed');
    expect(read.offset).toBeGreaterThan(offset);
    expect(read.live).toBe(true);
    await session.kill();
    const last = await tool.call(
      { action: 'read', session_id: session.id, viewer: 'v', after: read.offset, timeout: 20_000 },
      never,
    );
    expect(last.structuredContent).toMatchObject({ live: false, state: 'killed', mine: false });
  });

  it('refuses an unknown argument and a read without its offset, saying what is allowed', async () => {
    const session = await sessions.start({ command: 'cat', pty: true });
    const tool = createTerminalTool(sessions, undefined);
    const text = async (args: Record<string, unknown>) => {
      const result = await tool.call({ session_id: session.id, viewer: 'v', ...args }, never);
      expect(result.isError).toBe(true);
      return (result.content[0] as { text: string }).text;
    };
    expect(await text({ action: 'read', colour: 'red' })).toMatch(
      /^ERR_INVALID_OPTION: arguments\.colour must be one of the known arguments: action, session_id, viewer/,
    );
    expect(await text({ action: 'read' })).toMatch(/^ERR_INVALID_OPTION: after must be/);
    expect(await text({ action: 'read', after: 0, timeout: 60_000 })).toMatch(
      /^ERR_INVALID_OPTION: timeout must be an integer from 0 to 20000/,
    );
    // The keys are never echoed back in an error.
    await tool.call({ action: 'take', session_id: session.id, viewer: 'v' }, never);
    expect(await text({ action: 'input', data: 'x'.repeat(70_000) })).not.toContain('xxxx');
    tool.dispose();
    expect(session.humanControl).toBeNull();
  });

  it('is served beside the session resources, and exec and process name the page', async () => {
    const server = createProcmuxServer(createProcessTools(sessions), {
      sessions: { get: (id, owner) => sessions.get(id, owner), list: (owner) => sessions.list(owner) },
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'test', version: '1.0.0' });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    const { tools } = await client.listTools();
    expect(tools.map((t) => [t.name, t._meta])).toEqual([
      ['exec', { ui: { resourceUri: 'ui://procmux/terminal' } }],
      ['process', { ui: { resourceUri: 'ui://procmux/terminal' } }],
      ['procmux_terminal', { ui: { resourceUri: 'ui://procmux/terminal', visibility: ['app'] } }],
    ]);
    const page = (await client.readResource({ uri: 'ui://procmux/terminal' })).contents[0] as {
      mimeType: string;
      text: string;
    };
    expect(page.mimeType).toBe('text/html;profile=mcp-app');
    expect(page.text).toContain('procmux_terminal');
    const session = await sessions.start({ command: 'cat', pty: true });
    const attached = await client.callTool({
      name: 'procmux_terminal',
      arguments: { action: 'attach', session_id: session.id, viewer: 'v' },
    });
    expect(attached.structuredContent).toMatchObject({ session_id: session.id, live: true, control: null });
    await client.close();
  });
});
