// The view server without a browser: who gets in (token, Host, Origin), what a page receives
// (the screen, then the live stream), and the read-only / take-control protocol.
import { mkdtempSync, realpathSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { TerminalScreen } from '@procmux/screen';
import { createProcessSessions, type ProcessSession, type ProcessSessions } from '@procmux/sessions';
import { checkLeaksAfterAll, testTmpdir, waitFor } from '@procmux/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { serveView, type ViewServer } from '../src/index.js';

let sessions: ProcessSessions;
let view: ViewServer;

beforeEach(async () => {
  sessions = createProcessSessions({ cwd: realpathSync(mkdtempSync(join(testTmpdir(), 'procmux-view-'))) });
  view = await serveView(sessions);
});
afterEach(async () => {
  await view.close();
  await sessions.dispose();
});
checkLeaksAfterAll();

function get(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: view.port, path, headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

type Message = { type: string; [key: string]: unknown };

/** A socket's messages, collected from before it opens; `until` waits for one that matches. */
interface Collected {
  ws: WebSocket;
  seen: Message[];
  until(test: (m: Message) => boolean, what: string, deadlineMs?: number): Promise<Message>;
}

/** Opens a WebSocket; resolves once open, or to the HTTP status it was refused with. */
function connect(
  path: string,
  origin: string | null = `http://127.0.0.1:${view.port}`,
): Promise<Collected | number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${view.port}${path}`, origin === null ? {} : { origin });
    const collected = collect(ws);
    ws.once('open', () => resolve(collected));
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', reject);
  });
}

async function open(path: string): Promise<Collected> {
  const result = await connect(path);
  if (typeof result === 'number') throw new Error(`refused with ${result}`);
  return result;
}

function collect(ws: WebSocket): Collected {
  const seen: Message[] = [];
  const waiters: Array<() => void> = [];
  ws.on('message', (raw) => {
    seen.push(JSON.parse(raw.toString()) as Message);
    for (const w of waiters.splice(0)) w();
  });
  return {
    ws,
    seen,
    async until(test, what, deadlineMs = 20_000) {
      const deadline = Date.now() + deadlineMs;
      for (;;) {
        const found = seen.find(test);
        if (found) return found;
        if (Date.now() > deadline)
          throw new Error(`never got ${what}; got ${JSON.stringify(seen).slice(-2000)}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 200);
        });
      }
    },
  };
}

async function startPython(): Promise<ProcessSession> {
  const py = await sessions.start({
    command: 'python3',
    args: ['-q', '-i'],
    pty: true,
    terminal: { columns: 70, rows: 12 },
  });
  const deadline = Date.now() + 20_000;
  while (!/>>>$/.test(await py.screen())) {
    if (Date.now() > deadline) throw new Error('python never prompted');
    await py.poll({ timeoutMs: 500 });
  }
  return py;
}

describe('who gets in', () => {
  it('serves the page and its assets only with the token, on 127.0.0.1', async () => {
    expect(view.url).toBe(`http://127.0.0.1:${view.port}/?token=${view.token}`);
    expect(view.host).toBe('127.0.0.1');
    const t = `token=${view.token}`;
    const page = await get(`/?${t}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain(`/assets/xterm.js?${t}`);
    expect(page.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    for (const asset of ['/assets/xterm.js', '/assets/xterm.css', '/assets/view.js', '/assets/view.css']) {
      expect((await get(`${asset}?${t}`)).status).toBe(200);
      expect((await get(asset)).status).toBe(403);
      expect((await get(`${asset}?token=wrong`)).status).toBe(403);
    }
    for (const path of ['/', '/?token=', `/?token=${view.token.slice(1)}`, `/?token=${view.token}x`]) {
      const refused = await get(path);
      expect(refused.status).toBe(403);
      expect(refused.body).not.toContain(view.token);
    }
    expect((await get(`/nothing?${t}`)).status).toBe(404);
    // A DNS-rebound name or another site's page cannot use a leaked token.
    expect((await get(`/?${t}`, { host: `evil.example:${view.port}` })).status).toBe(403);
    expect((await get(`/?${t}`, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await get(`/?${t}`, { host: `localhost:${view.port}` })).status).toBe(200);
  });

  it('refuses WebSockets without the token, from another origin, or without an Origin', async () => {
    const t = `token=${view.token}`;
    expect(await connect('/ws/sessions')).toBe(403);
    expect(await connect('/ws/sessions?token=nope')).toBe(403);
    expect(await connect(`/ws/sessions?${t}`, 'http://evil.example')).toBe(403);
    expect(await connect(`/ws/sessions?${t}`, null)).toBe(403);
    expect(await connect(`/ws/session?id=proc_missing&${t}`)).toBe(404);
    expect(await connect(`/ws/other?${t}`)).toBe(404);
    const ok = await open(`/ws/sessions?${t}`);
    await ok.until((m) => m.type === 'sessions', 'the list');
    ok.ws.close();
  });

  it('binds another address only when asked explicitly, with a warning', async () => {
    await expect(serveView(sessions, { host: '0.0.0.0' })).rejects.toMatchObject({
      code: 'ERR_INVALID_OPTION',
    });
    await expect(serveView(sessions, { port: 70_000 })).rejects.toMatchObject({ code: 'ERR_INVALID_OPTION' });
    await expect(serveView(sessions, { token: 'short' })).rejects.toMatchObject({
      code: 'ERR_INVALID_OPTION',
    });
    const lines: string[] = [];
    const open = await serveView(sessions, {
      host: '0.0.0.0',
      allowNonLoopback: true,
      log: (l) => lines.push(l),
    });
    try {
      expect(lines.join('\n')).toMatch(/WARNING: listening on 0\.0\.0\.0/);
      expect(open.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/\?token=/);
    } finally {
      await open.close();
    }
  });
});

describe('what a page gets', () => {
  it('lists sessions and updates the list when they change', async () => {
    const got = await open(`/ws/sessions?token=${view.token}`);
    const list = got.ws;
    await got.until((m) => m.type === 'sessions', 'the first list');
    const py = await startPython();
    const row = await got.until(
      (m) =>
        m.type === 'sessions' &&
        (m.sessions as Array<{ id: string; state: string }>).some(
          (s) => s.id === py.id && s.state === 'running',
        ),
      'the new session in the list',
    );
    const listed = (row.sessions as Array<Record<string, unknown>>).find((s) => s.state === 'running');
    expect(listed).toMatchObject({
      id: py.id,
      command: 'python3 -q -i',
      state: 'running',
      pty: true,
      control: null,
    });
    // The row carries the session's waiting state: python may already sit at its prompt.
    const input = listed?.input as { prompt?: string; echo?: boolean } | null;
    expect(input === null || (input.prompt === '>>>' && input.echo === true)).toBe(true);
    await py.kill();
    await got.until(
      (m) => m.type === 'sessions' && (m.sessions as Array<{ state: string }>)[0]?.state === 'killed',
      'the killed state',
    );
    list.close();
  });

  it('sends the screen, then live output; read-only until it takes control', async () => {
    const py = await startPython();
    await py.paste('print("\\x1b[35mbefore\\x1b[0m")');
    await py.submit();
    const got = await open(`/ws/session?id=${py.id}&token=${view.token}`);
    const ws = got.ws;
    expect(await got.until((m) => m.type === 'hello', 'hello')).toMatchObject({
      columns: 70,
      rows: 12,
      pipe: false,
    });
    await got.until((m) => m.type === 'ready', 'ready');
    await py.paste('print("after")');
    await py.submit();
    await got.until((m) => m.type === 'output' && String(m.data).includes('after'), 'live output');

    ws.send(JSON.stringify({ type: 'input', data: 'print("sneaky")\r' }));
    await got.until((m) => m.type === 'error' && /read-only/.test(String(m.message)), 'read-only refusal');
    ws.send('not json');
    await got.until(
      (m) => m.type === 'error' && /unknown message/.test(String(m.message)),
      'bad message refusal',
    );

    ws.send(JSON.stringify({ type: 'take' }));
    await got.until((m) => m.type === 'control' && m.mine === true, 'control');
    await expect(py.paste('x')).rejects.toMatchObject({ code: 'ERR_PROCESS_STATE' });
    ws.send(JSON.stringify({ type: 'input', data: 'print(6*7)\r' }));
    await got.until((m) => m.type === 'output' && /42/.test(String(m.data)), 'the answer');

    // The page's stream, replayed, is what the session's screen shows (once the page has the
    // chunks that followed the answer, such as the next prompt).
    const replayed = async () => {
      const replay = new TerminalScreen({ cols: 70, rows: 12 });
      for (const m of got.seen) if (m.type === 'output') replay.feed(String(m.data));
      const text = await replay.renderFull();
      replay.dispose();
      return text;
    };
    await waitFor(async () => (await replayed()) === (await py.screen()), 10_000, 'the page caught up').catch(
      () => {},
    );
    expect(await replayed()).toBe(await py.screen());
    expect(await replayed()).not.toContain('sneaky');

    // Closing the page gives the keyboard back.
    ws.close();
    const deadline = Date.now() + 10_000;
    while (py.humanControl !== null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(py.humanControl).toBeNull();
    await py.paste('print(1)');

    const again = await open(`/ws/session?id=${py.id}&token=${view.token}`);
    const resized = again.ws;
    await again.until((m) => m.type === 'ready', 'ready');
    await py.resize!({ columns: 90, rows: 20 });
    await again.until((m) => m.type === 'resize' && m.columns === 90 && m.rows === 20, 'resize');
    await py.kill();
    await again.until((m) => m.type === 'state' && m.state === 'killed', 'end');
    resized.close();
  });

  it('a second page cannot take control held by the first', async () => {
    const py = await startPython();
    const ga = await open(`/ws/session?id=${py.id}&token=${view.token}`);
    const gb = await open(`/ws/session?id=${py.id}&token=${view.token}`);
    const a = ga.ws;
    const b = gb.ws;
    await ga.until((m) => m.type === 'ready', 'ready a');
    await gb.until((m) => m.type === 'ready', 'ready b');
    a.send(JSON.stringify({ type: 'take' }));
    await gb.until((m) => m.type === 'control' && m.mine === false && typeof m.holder === 'string', 'b told');
    b.send(JSON.stringify({ type: 'take' }));
    await gb.until((m) => m.type === 'error' && /already has control/.test(String(m.message)), 'b refused');
    a.send(JSON.stringify({ type: 'release' }));
    await gb.until((m) => m.type === 'control' && m.holder === null, 'released');
    a.close();
    b.close();
  });

  it('a pipe session is shown with CR LF line ends', async () => {
    const job = await sessions.start({ shell: true, command: 'printf "a\\nb\\n"; sleep 30' });
    const deadline = Date.now() + 10_000;
    while ((await job.output()).data !== 'a\nb\n' && Date.now() < deadline)
      await job.poll({ timeoutMs: 200 });
    const got = await open(`/ws/session?id=${job.id}&token=${view.token}`);
    const ws = got.ws;
    expect(await got.until((m) => m.type === 'output', 'the transcript')).toMatchObject({
      data: 'a\r\nb\r\n',
    });
    ws.close();
    await job.kill();
  });

  it('closing the view closes its pages and releases control', async () => {
    const py = await startPython();
    const got = await open(`/ws/session?id=${py.id}&token=${view.token}`);
    const ws = got.ws;
    await got.until((m) => m.type === 'ready', 'ready');
    ws.send(JSON.stringify({ type: 'take' }));
    await got.until((m) => m.type === 'control' && m.mine === true, 'control');
    const closed = new Promise((r) => ws.once('close', r));
    await view.close();
    await closed;
    const deadline = Date.now() + 10_000;
    while (py.humanControl !== null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(py.humanControl).toBeNull();
  });
});

describe('listening', () => {
  it('says which port is taken', async () => {
    await expect(serveView(sessions, { port: view.port })).rejects.toMatchObject({
      code: 'ERR_INVALID_OPTION',
      message: expect.stringMatching(/cannot listen on 127\.0\.0\.1:\d+ \(EADDRINUSE\)/),
    });
  });
});
