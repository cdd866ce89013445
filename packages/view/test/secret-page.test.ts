// One-time secret pages without a browser: the page needs its own ticket (not the token),
// answers once, refuses other origins and hosts, and hands what was typed to `deliver` only.
import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_SECRET_BYTES, serveView, type ViewServer } from '../src/index.js';

let view: ViewServer;
// No session is ever started: the pages need none of the registry.
const sessions = { list: () => [], get: () => undefined, watch: () => () => {} } as never;

beforeEach(async () => {
  view = await serveView(sessions);
});
afterEach(async () => {
  await view.close();
});

function send(
  url: string,
  method: 'GET' | 'POST',
  options: { body?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method,
        headers: {
          ...(method === 'POST'
            ? { 'content-type': 'application/x-www-form-urlencoded', origin: u.origin }
            : {}),
          ...options.headers,
        },
      },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

function offer(prompt = 'Password: ') {
  const delivered: string[] = [];
  const ticket = view.askSecret({
    prompt,
    label: 'procmux session s1: sudo true',
    deliver: async (secret) => {
      delivered.push(secret);
    },
  });
  return { ticket, delivered };
}

describe('one-time secret pages', () => {
  it('shows the prompt and one password field, without the view token and without script', async () => {
    const { ticket } = offer('Password for <admin>: ');
    expect(ticket.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${view.port}/secret/[A-Za-z0-9_-]{43}$`));
    expect(ticket.url).not.toContain(view.token);
    const page = await send(ticket.url, 'GET');
    expect(page.status).toBe(200);
    expect(page.body).toContain('Password for &lt;admin&gt;:');
    expect(page.body.match(/<input /g)).toHaveLength(1);
    expect(page.body).toContain('type="password"');
    expect(page.body).not.toContain('<script');
  });

  it('delivers the answer once, then the page is gone', async () => {
    const { ticket, delivered } = offer();
    const sent = await send(ticket.url, 'POST', { body: 'secret=s3cr%C3%A9t+x' });
    expect(sent.status).toBe(200);
    expect(sent.body).not.toContain('s3cr');
    await ticket.answered;
    expect(delivered).toEqual(['s3crét x']);
    expect((await send(ticket.url, 'POST', { body: 'secret=again' })).status).toBe(410);
    expect((await send(ticket.url, 'GET')).status).toBe(410);
    expect(delivered).toHaveLength(1);
  });

  it('refuses a foreign Origin, a missing Origin on the POST, and a foreign Host', async () => {
    const { ticket, delivered } = offer();
    const foreign = await send(ticket.url, 'POST', {
      body: 'secret=x',
      headers: { origin: 'http://evil.example' },
    });
    expect(foreign.status).toBe(403);
    const nullOrigin = await send(ticket.url, 'POST', { body: 'secret=x', headers: { origin: 'null' } });
    expect(nullOrigin.status).toBe(403);
    const host = await send(ticket.url, 'GET', { headers: { host: 'evil.example' } });
    expect(host.status).toBe(403);
    expect(delivered).toEqual([]);
    // Still open for the real page.
    expect((await send(ticket.url, 'POST', { body: 'secret=x' })).status).toBe(200);
  });

  it('refuses an answer over MAX_SECRET_BYTES and one not from the form, and keeps the page', async () => {
    const { ticket, delivered } = offer();
    const big = await send(ticket.url, 'POST', { body: `secret=${'a'.repeat(MAX_SECRET_BYTES + 1)}` });
    expect(big.status).toBe(413);
    const json = await send(ticket.url, 'POST', {
      body: '{"secret":"x"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(json.status).toBe(415);
    expect(delivered).toEqual([]);
    expect((await send(ticket.url, 'GET')).status).toBe(200);
  });

  it('withdraws a cancelled page, and an unknown ticket is gone', async () => {
    const { ticket, delivered } = offer();
    ticket.cancel();
    expect((await send(ticket.url, 'POST', { body: 'secret=x' })).status).toBe(410);
    expect((await send(`http://127.0.0.1:${view.port}/secret/${'A'.repeat(43)}`, 'GET')).status).toBe(410);
    expect(delivered).toEqual([]);
  });
});
