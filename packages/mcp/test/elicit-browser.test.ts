// A person answers a one_shot's password prompt (issue 33 item 4): `procmux mcp --view 0`
// driven by the MCP SDK client, which declares URL-mode elicitation and opens the URL it is
// sent in chromium (Debian's, through playwright-core), where the "person" types the secret
// and presses Enter. The secret must reach the program and nothing else: the test greps every
// reply, log page, record, recording, message and the view's screen copy for it.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  type CallToolResult,
  ElicitRequestSchema,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { assertNoLeakedProcesses, chromiumPath, requireTool, trackPid } from '@procmux/test-utils';
import type { ToolResultData } from '@procmux/tools';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const CHROMIUM = chromiumPath();
const skip = requireTool('chromium');
const SECRET = 'hunter2-Zq9-elicited';
// biome-ignore lint/suspicious/noTemplateCurlyInString: a bash parameter expansion
const COMMAND = 'read -s -p "Password: " pw; echo "got ${#pw} chars"';

interface Server {
  client: Client;
  stderr(): string;
  /** Every JSON-RPC message the client received, as sent. */
  received: string[];
  stateDir: string;
  call(
    name: string,
    args: Record<string, unknown>,
  ): Promise<{ text: string; isError: boolean; data: ToolResultData; raw: string }>;
}

let root: string;
let browser: Browser;
const clients: Client[] = [];
const dirs: string[] = [];

async function start(elicitation: boolean, onUrl?: (url: string) => void): Promise<Server> {
  const stateDir = mkdtempSync(join(tmpdir(), 'procmux-elicit-state-'));
  dirs.push(stateDir);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--cwd', root, '--view', '0', '--state-dir', stateDir],
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client(
    { name: 'procmux-elicit-e2e', version: '1.0.0' },
    { capabilities: elicitation ? { elicitation: { url: {} } } : {} },
  );
  if (elicitation) {
    client.setRequestHandler(ElicitRequestSchema, async (req): Promise<ElicitResult> => {
      if (req.params.mode !== 'url') return { action: 'decline' };
      // As a host does: the person agreed to open the page; what they do there comes later.
      onUrl?.(req.params.url);
      return { action: 'accept' };
    });
  }
  const received: string[] = [];
  await client.connect(transport);
  // Tapped after connect (the client sets its own onmessage there): everything that arrives.
  const onmessage = transport.onmessage;
  transport.onmessage = (message) => {
    received.push(JSON.stringify(message));
    onmessage?.(message);
  };
  trackPid(transport.pid ?? undefined);
  clients.push(client);
  return {
    client,
    stderr: () => stderr,
    received,
    stateDir,
    async call(name, args) {
      const result = (await client.callTool({ name, arguments: args }, undefined, {
        timeout: 60_000,
      })) as CallToolResult;
      const text = (result.content[0] as { type: 'text'; text: string }).text;
      return {
        text,
        isError: result.isError === true,
        data: result.structuredContent as ToolResultData,
        raw: JSON.stringify(result),
      };
    },
  };
}

/** Every file under `dir`, as bytes read raw (SQLite pages and WAL included). */
function filesUnder(dir: string): Map<string, Buffer> {
  const found = new Map<string, Buffer>();
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, name);
    try {
      if (statSync(path).isFile()) found.set(path, readFileSync(path));
    } catch {
      // A socket or a file gone meanwhile.
    }
  }
  return found;
}

function status(url: string, method = 'GET', body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = request({
      host: u.hostname,
      port: u.port,
      path: u.pathname,
      method,
      headers:
        body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded', origin: u.origin },
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe.skipIf(skip !== undefined)(
  `a person answers a one_shot's password prompt${skip ? ` (${skip})` : ''}`,
  () => {
    beforeAll(async () => {
      root = mkdtempSync(join(tmpdir(), 'procmux-elicit-e2e-'));
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    });
    afterAll(async () => {
      await browser?.close();
      for (const client of clients) await client.close();
      for (const dir of [root, ...dirs]) if (dir) rmSync(dir, { recursive: true, force: true });
      await assertNoLeakedProcesses();
    });

    it('types what the person entered into the program, and it appears nowhere else', async () => {
      const urls: string[] = [];
      const pages: string[] = [];
      let typed: Promise<void> | undefined;
      const server = await start(true, (url) => {
        urls.push(url);
        typed = (async () => {
          const page = await browser.newPage();
          await page.goto(url);
          pages.push(await page.content());
          await page.locator('input[type=password]').pressSequentially(SECRET);
          await page.keyboard.press('Enter');
          await page.waitForSelector('text=Sent to the program');
          pages.push(await page.content());
          await page.close();
        })();
      });
      const reply = await server.call('exec', { command: COMMAND });
      await typed;
      expect(reply.isError).toBe(false);
      expect(reply.text).toContain(`got ${SECRET.length} chars`);
      expect(reply.text).toContain('A person answered its hidden prompt ("Password:") through the view');
      expect(reply.data.personAnswered).toBe(1);
      expect(urls).toHaveLength(1);
      expect(urls[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/secret\/[A-Za-z0-9_-]{43}$/);
      expect(pages[0]).toContain('Password:');
      // Single use: the page is gone once answered.
      expect(await status(urls[0]!)).toBe(410);
      expect(await status(urls[0]!, 'POST', 'secret=again')).toBe(410);

      const id = reply.data.session!.id;
      const log = await server.call('process', { action: 'log', session_id: id });
      const recorded = await server.call('process', { action: 'record', session_id: id });
      const listed = await server.call('process', { action: 'list' });
      expect(log.text).toContain(`got ${SECRET.length} chars`);
      // The view's copy of the session: its page, as a person opens it.
      const viewUrl = /procmux view: (\S+)/.exec(server.stderr())![1]!;
      const view = await browser.newPage();
      await view.goto(`${viewUrl}&session=${id}`);
      await view.waitForFunction(() =>
        (window as unknown as { procmuxView?: { text(): string } }).procmuxView?.text().includes('chars'),
      );
      const screen = await view.evaluate(() =>
        (window as unknown as { procmuxView: { text(): string } }).procmuxView.text(),
      );
      await view.close();
      expect(screen).toContain(`got ${SECRET.length} chars`);

      const places = new Map<string, string | Buffer>([
        ['reply', reply.raw],
        ['log page', log.raw],
        ['record reply', recorded.raw],
        ['list', listed.raw],
        ['every message the client received', server.received.join('\n')],
        ['server stderr (its log)', server.stderr()],
        ["the view's screen copy", screen],
        ['the answer page after sending', pages[1] ?? ''],
        ...filesUnder(root),
        ...filesUnder(server.stateDir),
      ]);
      expect([...places.keys()].some((k) => k.endsWith('.cast'))).toBe(true);
      for (const [place, content] of places) {
        const bytes = typeof content === 'string' ? Buffer.from(content) : content;
        expect(bytes.includes(SECRET), `the secret in ${place}`).toBe(false);
      }
    });

    it('stops the one_shot as before when the client does not take URL elicitation', async () => {
      const server = await start(false);
      const reply = await server.call('exec', { command: COMMAND });
      expect(reply.isError).toBe(true);
      expect(reply.text).toContain('procmux stopped it: it was waiting for input at "Password:"');
      expect(reply.data.personAnswered).toBeUndefined();
      expect(server.received.join('\n')).not.toContain('elicitation/create');
    });

    it('stops the one_shot as before when the person declines', async () => {
      const server = await start(true);
      server.client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'decline' as const }));
      const reply = await server.call('exec', { command: COMMAND });
      expect(reply.isError).toBe(true);
      expect(reply.text).toContain('procmux stopped it: it was waiting for input at "Password:"');
      expect(server.received.join('\n')).toContain('"method":"elicitation/create"');
    });
  },
);
