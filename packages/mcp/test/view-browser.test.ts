// The live view in a real browser (Debian's chromium through playwright-core, no download):
// `procmux mcp --view 0` driven by the MCP SDK client as a model would, and the page as a
// person would use it. Under CI on Linux a missing chromium fails this file (requireTool);
// elsewhere it is skipped with the reason (install it with `apt-get install chromium`).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { assertNoLeakedProcesses, chromiumPath, requireTool, trackPid, waitFor } from '@procmux/test-utils';
import type { ToolResultData } from '@procmux/tools';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const CHROMIUM = chromiumPath();
// Under CI on Linux a missing chromium fails this file; elsewhere it skips with the reason.
const skip = requireTool('chromium');

let root: string;
let client: Client;
let stderr = '';
let viewUrl: URL;
let browser: Browser;
let page: Page;

type Result = { text: string; isError: boolean; data: ToolResultData };

async function call(name: string, args: Record<string, unknown>): Promise<Result> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (result.content[0] as { type: 'text'; text: string }).text;
  return { text, isError: result.isError === true, data: result._meta?.['procmux/result'] as ToolResultData };
}

/** Status of a plain GET, or of a WebSocket handshake (101 when it was accepted). */
function status(path: string, websocket = false, origin?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = websocket
      ? {
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-version': '13',
          'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
          origin: origin ?? viewUrl.origin,
        }
      : {};
    const req = request({ host: viewUrl.hostname, port: viewUrl.port, path, headers });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

const pageText = () =>
  page.evaluate(() => (window as unknown as { procmuxView: { text(): string } }).procmuxView.text());
const pageState = () =>
  page.evaluate(
    () =>
      (
        window as unknown as {
          procmuxView: { state: { mine: boolean; ready: boolean; control: string | null } };
        }
      ).procmuxView.state,
  );

describe.skipIf(skip !== undefined)(`procmux mcp --view in chromium${skip ? ` (${skip})` : ''}`, () => {
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'procmux-view-e2e-'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--cwd', root, '--view', '0'],
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    client = new Client({ name: 'procmux-view-e2e', version: '1.0.0' });
    await client.connect(transport);
    trackPid(transport.pid ?? undefined);
    await waitFor(
      () => /procmux view: http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/.test(stderr),
      15_000,
      'the view URL',
    );
    viewUrl = new URL(/procmux view: (\S+)/.exec(stderr)![1]!);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1400, height: 800 } });
  });
  afterAll(async () => {
    await browser?.close();
    await client?.close();
    if (root) rmSync(root, { recursive: true, force: true });
    await assertNoLeakedProcesses();
  });

  it('shows the session live, read-only until a person takes control, and hands back', async () => {
    const started = await call('exec', { command: 'python3 -q -i', mode: 'session' });
    const id = started.data.session!.id;
    // wait_for counts a prompt exec's reply already showed: no need to look at the reply first.
    await call('process', { action: 'wait_for', session_id: id, pattern: '^>>>' });
    await call('process', {
      action: 'paste',
      session_id: id,
      text: 'print("\\x1b[1;32mhello from the model\\x1b[0m")',
    });
    await call('process', { action: 'submit', session_id: id });
    await call('process', { action: 'wait_for', session_id: id, pattern: 'hello from the model\\n>>>' });

    await page.goto(`${viewUrl.href}&session=${id}`);
    await page.waitForFunction(
      () => (window as unknown as { procmuxView: { state: { ready: boolean } } }).procmuxView.state.ready,
      null,
      { timeout: 20_000 },
    );
    // The page's terminal shows what the session's screen shows (text, not pixels).
    // log pages the ANSI-stripped transcript: for this REPL it is the screen but for trailing
    // blanks, which a rendered screen right-trims.
    const screen = rightTrim((await call('process', { action: 'log', session_id: id })).data.output);
    await waitFor(async () => (await pageText()) === screen, 10_000, 'the page to show the screen');
    expect(await page.locator('#rows tr').count()).toBe(1);
    await expect(page.locator('#rows tr td.id').textContent()).resolves.toBe(id);
    await expect(page.locator('#rows tr td.command').textContent()).resolves.toBe('python3 -q -i');

    // Output printed afterwards appears: latency from python's clock to the page's.
    const latencies: number[] = [];
    for (let i = 0; i < 5; i++) {
      const marker = `late-${i}`;
      await call('process', {
        action: 'paste',
        session_id: id,
        text: `import time; print("${marker}", repr(time.time()))`,
      });
      await call('process', { action: 'submit', session_id: id });
      const seenAt = await page.waitForFunction(
        (m) => {
          const view = (window as unknown as { procmuxView: { text(): string } }).procmuxView;
          const line = view
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
    }
    console.log(
      `view latency (python print -> page text), ms: ${latencies.map((l) => l.toFixed(1)).join(', ')}`,
    );

    // Read-only: a person's keys reach nothing, and the page says why.
    await call('process', { action: 'poll', session_id: id });
    await page.click('#terminal');
    await page.keyboard.type('print("typed while read-only")');
    await page.keyboard.press('Enter');
    await expect(page.locator('#notice').textContent()).resolves.toMatch(/Read-only/);
    const quiet = await call('process', { action: 'poll', session_id: id, timeout: 700 });
    expect(quiet.text).not.toContain('typed while read-only');

    // Take control: the person types, the model watches and is refused.
    await page.click('#take');
    await page.waitForFunction(
      () => (window as unknown as { procmuxView: { state: { mine: boolean } } }).procmuxView.state.mine,
    );
    await expect(page.locator('#mode').textContent()).resolves.toMatch(/You have control/);
    await page.click('#terminal');
    await page.keyboard.type('print(6*7)');
    await page.keyboard.press('Enter');
    let seen = '';
    for (let i = 0; i < 10 && !/^42$/m.test(seen); i++) {
      seen += (await call('process', { action: 'poll', session_id: id, timeout: 2_000 })).text;
    }
    expect(seen).toMatch(/^42$/m);
    const refused = await call('process', { action: 'paste', session_id: id, text: 'print("model")' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('ERR_PROCESS_STATE');
    expect(refused.text).toMatch(/a person \(view tab \d+\) has control/);
    await waitFor(() => /human_control_started/.test(stderr), 5_000, 'the control event in the log');
    // The row changes once the page gets the list the control event caused: wait for that row.
    const row = page.locator(`#rows tr[data-id="${id}"] td`).nth(2);
    await row.filter({ hasText: /has control/ }).waitFor({ timeout: 10_000 });
    expect(await row.textContent()).toMatch(/has control/);

    if (process.env.PROCMUX_VIEW_SCREENSHOT) {
      await page.screenshot({ path: process.env.PROCMUX_VIEW_SCREENSHOT });
    }

    // Release: the model has the keyboard again.
    await page.click('#release');
    await page.waitForFunction(
      () => !(window as unknown as { procmuxView: { state: { mine: boolean } } }).procmuxView.state.mine,
    );
    const again = await call('process', { action: 'paste', session_id: id, text: 'print("model again")' });
    expect(again.isError).toBe(false);
    await call('process', { action: 'submit', session_id: id });
    // Python writes the line and its next prompt apart: wait for the prompt, then for the page
    // to show it (a page that had the line but not yet the prompt failed a CI run).
    await call('process', { action: 'wait_for', session_id: id, pattern: '^model again\\n>>>' });
    const after = rightTrim((await call('process', { action: 'log', session_id: id })).data.output);
    expect(after).toMatch(/^model again\n>>>$/m);
    await waitFor(async () => (await pageText()) === after, 10_000, 'the page to show the screen again');
    await waitFor(() => /human_control_ended/.test(stderr), 5_000, 'the end event in the log');
    expect((await pageState()).control).toBeNull();
  });

  it('keeps what a person types at an echo-off prompt away from the model, the log and the recording', async () => {
    const secret = 'correct-horse-battery';
    const started = await call('exec', {
      command: `python3 -q -c 'import getpass; p = getpass.getpass("Password: "); print("got", len(p)); input("done? ")'`,
      mode: 'session',
    });
    const id = started.data.session!.id;
    await call('process', { action: 'wait_for', session_id: id, pattern: 'Password:' });
    await page.click(`#rows tr[data-id="${id}"]`);
    await page.waitForFunction(
      () => (window as unknown as { procmuxView: { state: { ready: boolean } } }).procmuxView.state.ready,
    );
    await page.click('#take');
    await page.waitForFunction(
      () => (window as unknown as { procmuxView: { state: { mine: boolean } } }).procmuxView.state.mine,
    );
    await page.click('#terminal');
    await page.keyboard.type(secret);
    await page.keyboard.press('Enter');
    await waitFor(async () => /got 21/.test(await pageText()), 10_000, 'the program to read the password');
    await page.click('#release');
    const seen = [
      (await call('process', { action: 'poll', session_id: id })).text,
      (await call('process', { action: 'log', session_id: id })).text,
      (await call('process', { action: 'record', session_id: id, path: 'secret.cast' })).text,
      readFileSync(join(root, 'secret.cast'), 'utf8'),
      await pageText(),
      stderr,
    ].join('\n');
    expect(seen).toContain('got 21');
    expect(seen).not.toContain(secret);
    await call('process', { action: 'kill', session_id: id });
  });

  it('refuses the page, the assets and the WebSocket without the right token', async () => {
    const good = viewUrl.searchParams.get('token')!;
    for (const path of [
      '/',
      '/assets/xterm.js',
      '/assets/view.js',
      '/assets/xterm.css',
      '/assets/view.css',
    ]) {
      expect(await status(`${path}?token=${good}`), path).toBe(200);
      expect(await status(path), path).toBe(403);
      expect(await status(`${path}?token=not-the-token`), path).toBe(403);
    }
    expect(await status(`/ws/sessions?token=${good}`, true)).toBe(101);
    expect(await status('/ws/sessions', true)).toBe(403);
    expect(await status('/ws/sessions?token=not-the-token', true)).toBe(403);
    expect(await status(`/ws/sessions?token=${good}`, true, 'http://evil.example')).toBe(403);

    // The browser gets the same answer: a page opened without the token shows nothing of procmux.
    const response = await page.goto(`${viewUrl.origin}/`);
    expect(response?.status()).toBe(403);
  });
});

function rightTrim(text: string | undefined): string {
  return (text ?? '').replace(/[ \t]+$/gm, '');
}
