// The terminal MCP App in a real browser (Debian's chromium through playwright-core): a real
// `procmux mcp` over stdio, driven by the SDK client as a model and as a host would; the host
// page is ext-apps' AppBridge with the app's page (read as ui://procmux/terminal) in a
// sandboxed iframe, its tool calls answered by the same client. Under CI on Linux a missing
// chromium fails this file (requireTool); elsewhere it is skipped with the reason.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolRequest, CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  assertNoLeakedProcesses,
  chromiumPath,
  leakedCgroups,
  requireTool,
  trackPid,
  waitFor,
} from '@procmux/test-utils';
import type { ToolResultData } from '@procmux/tools';
import { type Browser, chromium, type Frame, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appHostPage } from './app-host.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const CHROMIUM = chromiumPath();
const skip = requireTool('chromium');
const APP_URI = 'ui://procmux/terminal';

let root: string;
let client: Client;
let serverPid: number | undefined;
let browser: Browser;
let page: Page;
let app: Frame;

type Result = { text: string; isError: boolean; data: ToolResultData; raw: CallToolResult };

async function call(name: string, args: Record<string, unknown>): Promise<Result> {
  const raw = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (raw.content[0] as { type: 'text'; text: string }).text;
  return { text, isError: raw.isError === true, data: raw.structuredContent as ToolResultData, raw };
}

const appText = () =>
  app.evaluate(() => (window as unknown as { procmuxApp: { text(): string } }).procmuxApp.text());
type AppState = { id: string | null; ready: boolean; mine: boolean; control: string | null; live: boolean };
const appState = () =>
  app.evaluate(() => (window as unknown as { procmuxApp: { state: AppState } }).procmuxApp.state);
const screenOf = async (id: string) => {
  const read = await client.readResource({ uri: `procmux://session/${id}/screen` });
  return (read.contents[0] as { text: string }).text;
};

describe.skipIf(skip !== undefined)(`the terminal MCP App in chromium${skip ? ` (${skip})` : ''}`, () => {
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'procmux-app-e2e-'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--cwd', root],
      stderr: 'pipe',
    });
    client = new Client({ name: 'procmux-app-e2e', version: '1.0.0' });
    await client.connect(transport);
    serverPid = transport.pid ?? undefined;
    trackPid(serverPid);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1200, height: 700 } });
    // The host forwards the app's tool calls to the server, as a real host does.
    await page.exposeFunction('mcpCallTool', (params: CallToolRequest['params']) => client.callTool(params));
    await page.setContent(await appHostPage());
  });
  afterAll(async () => {
    await browser?.close();
    await client?.close();
    if (root) rmSync(root, { recursive: true, force: true });
    await assertNoLeakedProcesses();
    expect(leakedCgroups(serverPid !== undefined ? [serverPid] : [])).toEqual([]);
  });

  it('names the app on exec and process, and serves it as one self-contained page', async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('exec')?._meta).toEqual({ ui: { resourceUri: APP_URI } });
    expect(byName.get('process')?._meta).toEqual({ ui: { resourceUri: APP_URI } });
    // The app's own tool is for the app only: hosts keep it from the model.
    expect(byName.get('procmux_terminal')?._meta).toEqual({
      ui: { resourceUri: APP_URI, visibility: ['app'] },
    });

    const { resources } = await client.listResources();
    expect(resources).toContainEqual(
      expect.objectContaining({ uri: APP_URI, mimeType: 'text/html;profile=mcp-app' }),
    );
    const read = await client.readResource({ uri: APP_URI });
    const content = read.contents[0] as { uri: string; mimeType: string; text: string };
    expect(content.mimeType).toBe('text/html;profile=mcp-app');
    expect(content.text).toMatch(/^<!doctype html>/);
    // Nothing fetched: no script, stylesheet or image by URL.
    expect(content.text).not.toMatch(/<script[^>]+src=|<link[^>]+href=|<img[^>]+src=/i);
  });

  it('shows the session screen live; a person takes control, types print(6*7), the model sees 42', async () => {
    const input = { command: 'python3 -q -i', mode: 'session' };
    const started = await call('exec', input);
    const id = started.data.session!.id;
    await call('process', { action: 'wait_for', session_id: id, pattern: '^>>>' });
    await call('process', {
      action: 'paste',
      session_id: id,
      text: 'print("\\x1b[1;32mhello from the model\\x1b[0m")',
    });
    await call('process', { action: 'submit', session_id: id });
    await call('process', { action: 'wait_for', session_id: id, pattern: 'hello from the model\\n>>>' });

    // The host renders the app for the exec result, as an MCP Apps host does.
    const html = ((await client.readResource({ uri: APP_URI })).contents[0] as { text: string }).text;
    await page.evaluate(
      ([h, i, r]) =>
        (window as unknown as { startHost(h: string, i: unknown, r: unknown): Promise<void> }).startHost(
          h,
          i,
          r,
        ),
      [html, input, started.raw] as const,
    );
    app = (await (await page.$('#app'))!.contentFrame())!;
    await app.waitForFunction(
      () => (window as unknown as { procmuxApp: { state: AppState } }).procmuxApp.state.ready,
    );
    expect((await appState()).id).toBe(id);

    // The app's terminal shows what the session's screen shows (text, not pixels).
    const screen = await screenOf(id);
    expect(screen).toContain('hello from the model');
    await waitFor(async () => (await appText()) === screen, 10_000, 'the app to show the screen');

    // Live: what the model prints next appears in the app without any call of the host's.
    await call('process', { action: 'paste', session_id: id, text: 'print("later", 1 + 1)' });
    await call('process', { action: 'submit', session_id: id });
    await waitFor(async () => /^later 2$/m.test(await appText()), 10_000, 'the app to show new output');
    await call('process', { action: 'wait_for', session_id: id, pattern: 'later 2\\n>>>' });
    // Latency from python's clock to the app's (logged, not asserted: tests never time things).
    const latencies: number[] = [];
    for (let i = 0; i < 5; i++) {
      const marker = `late-${i}`;
      await call('process', {
        action: 'paste',
        session_id: id,
        text: `import time; print("${marker}", repr(time.time()))`,
      });
      await call('process', { action: 'submit', session_id: id });
      const seenAt = await app.waitForFunction(
        (m) => {
          const line = (window as unknown as { procmuxApp: { text(): string } }).procmuxApp
            .text()
            .split('\n')
            .find((l) => l.startsWith(`${m} `));
          return line ? [Date.now(), Number(line.split(' ')[1])] : false;
        },
        marker,
        { polling: 'raf', timeout: 10_000 },
      );
      const [shownMs, printedS] = (await seenAt.jsonValue()) as [number, number];
      latencies.push(shownMs - printedS * 1000);
      await call('process', { action: 'wait_for', session_id: id, pattern: `${marker} .*\\n>>>` });
    }
    console.log(
      `app latency (python print -> app text, through the host), ms: ${latencies.map((l) => l.toFixed(1)).join(', ')}`,
    );
    await waitFor(
      async () => (await appText()) === (await screenOf(id)),
      10_000,
      'the app to match the screen',
    );

    // Read-only until the person takes control: their keys reach nothing.
    await app.click('#terminal');
    await page.keyboard.type('print("typed while read-only")');
    await page.keyboard.press('Enter');
    await expect(app.locator('#notice').textContent()).resolves.toMatch(/Read-only/);
    const quiet = await call('process', { action: 'poll', session_id: id, timeout: 700 });
    expect(quiet.text).not.toContain('typed while read-only');

    await app.click('#take');
    await app.waitForFunction(
      () => (window as unknown as { procmuxApp: { state: AppState } }).procmuxApp.state.mine,
    );
    await expect(app.locator('#mode').textContent()).resolves.toMatch(/You have control/);
    await app.click('#terminal');
    await page.keyboard.type('print(6*7)');
    await page.keyboard.press('Enter');
    let seen = '';
    for (let i = 0; i < 10 && !/^42$/m.test(seen); i++) {
      seen += (await call('process', { action: 'poll', session_id: id, timeout: 2_000 })).text;
    }
    expect(seen).toMatch(/^42$/m);
    // The same lease as the view's: the model is refused meanwhile, and told who holds it.
    const refused = await call('process', { action: 'paste', session_id: id, text: 'print("model")' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('ERR_PROCESS_STATE');
    expect(refused.text).toMatch(/a person \(mcp app [0-9a-f]+\) has control/);

    // Hand back: the model types again, and the app shows it.
    await app.click('#release');
    await app.waitForFunction(
      () => !(window as unknown as { procmuxApp: { state: AppState } }).procmuxApp.state.mine,
    );
    const again = await call('process', { action: 'paste', session_id: id, text: 'print("model again")' });
    expect(again.isError).toBe(false);
    await call('process', { action: 'submit', session_id: id });
    await call('process', { action: 'wait_for', session_id: id, pattern: 'model again\\n>>>' });
    await waitFor(
      async () => (await appText()) === (await screenOf(id)),
      10_000,
      'the app to match the screen',
    );
    expect(await appText()).toMatch(/^model again$/m);
    expect((await appState()).control).toBeNull();

    await call('process', { action: 'kill', session_id: id });
    await app.waitForFunction(
      () => !(window as unknown as { procmuxApp: { state: AppState } }).procmuxApp.state.live,
    );
    await expect(app.locator('#mode').textContent()).resolves.toMatch(/session killed/);
  });

  it('refuses the app tool input without control, and bad arguments, saying what is allowed', async () => {
    const started = await call('exec', { command: 'cat', mode: 'session' });
    const id = started.data.session!.id;
    const viewer = 'test1';
    const typed = await call('procmux_terminal', { action: 'input', session_id: id, viewer, data: 'x' });
    expect(typed.isError).toBe(true);
    expect(typed.text).toMatch(/^ERR_PROCESS_STATE: read-only: take control/);
    const bad = await call('procmux_terminal', { action: 'type', session_id: id, viewer });
    expect(bad.text).toBe(
      "ERR_INVALID_OPTION: action must be one of 'attach', 'read', 'take', 'input', 'release' (got \"type\")",
    );
    const badViewer = await call('procmux_terminal', { action: 'attach', session_id: id, viewer: 'a b' });
    expect(badViewer.text).toMatch(/^ERR_INVALID_OPTION: viewer must be 1-40 of A-Z a-z 0-9 _ -/);
    const unknown = await call('procmux_terminal', { action: 'attach', session_id: 'nope', viewer });
    expect(unknown.text).toMatch(/^ERR_PROCESS_NOT_FOUND/);
    // Take, type, release through the tool: the program got exactly the keys.
    expect((await call('procmux_terminal', { action: 'take', session_id: id, viewer })).isError).toBe(false);
    await call('procmux_terminal', { action: 'input', session_id: id, viewer, data: 'through the lease\r' });
    const poll = await call('process', { action: 'wait_for', session_id: id, pattern: 'through the lease' });
    expect(poll.isError).toBe(false);
    await call('procmux_terminal', { action: 'release', session_id: id, viewer });
    expect((await call('process', { action: 'send_keys', session_id: id, keys: ['C-d'] })).isError).toBe(
      false,
    );
    await call('process', { action: 'wait', session_id: id, timeout: 5_000 });
  });
});
