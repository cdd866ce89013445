// The proxy's answer when an allowed destination cannot be reached from this host (nothing
// listens there, or the name does not resolve): a 502 that says so, for a plain request and for
// CONNECT. It closed the connection without a word before (curl: "Empty reply from server",
// "Proxy CONNECT aborted"; pip retried five times on "Remote end closed connection").
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDomain } from '../src/policy.js';
import { startProxy } from '../src/proxy.js';

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sbx-upstream-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A loopback port nothing listens on (taken, then let go). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Sends `request` to a proxy allowing `allow`, and returns all it answers and what it refused. */
async function ask(allow: string, request: string): Promise<{ answer: string; refused: string[] }> {
  const refused: string[] = [];
  const path = join(dir, `proxy-${Math.random().toString(36).slice(2)}.sock`);
  const proxy = await startProxy(path, [parseDomain(allow)], (d) => refused.push(d));
  try {
    const socket = connect(path);
    socket.write(request);
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (d: Buffer) => {
        text += d.toString('latin1');
      });
      socket.on('close', () => resolve(text));
    });
    return { answer, refused };
  } finally {
    await proxy.close();
  }
}

describe('an allowed destination this host cannot reach', () => {
  it('answers a plain request 502, naming the destination and why', async () => {
    const port = await closedPort();
    const { answer, refused } = await ask(
      `127.0.0.1:${port}`,
      `GET http://127.0.0.1:${port}/x HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 502 Bad Gateway\r\n/);
    expect(answer).toContain(
      `procmux sandbox: 127.0.0.1:${port} is allowed but could not be reached from this host (ECONNREFUSED)\n`,
    );
    expect(refused).toEqual([]);
  });

  it('answers CONNECT 502 the same way', async () => {
    const port = await closedPort();
    const { answer, refused } = await ask(
      `127.0.0.1:${port}`,
      `CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 502 Bad Gateway\r\n/);
    expect(answer).toContain(
      `127.0.0.1:${port} is allowed but could not be reached from this host (ECONNREFUSED)`,
    );
    expect(refused).toEqual([]);
  });
});
