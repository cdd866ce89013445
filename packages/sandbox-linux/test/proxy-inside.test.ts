// The proxy's side of a sandbox's own loopback, driven by a forwarder written here that speaks
// sandbox-init's protocol: a relayed request to loopback is asked for inside first and paired
// with the stream the forwarder hands back; nothing inside, or no forwarder able to look,
// leaves the allow list to decide, as before.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InsideStreams, insideAddress, OUTSIDE_LINE, RELAY_HELLO } from '../src/inside.js';
import { parseDomain } from '../src/policy.js';
import { type SandboxProxy, startProxy } from '../src/proxy.js';

// Made when the tests run, not when the file is imported (`vitest list` imports it too).
let dir = '';
let hostServer: Server;
let hostPort = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sbx-proxy-'));
  hostServer = createHttpServer((_q, r) => r.end('host body'));
  await new Promise<void>((resolve) => hostServer.listen(0, '127.0.0.1', resolve));
  hostPort = (hostServer.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((resolve) => hostServer.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

let proxies = 0;
async function proxy(allow: string[] = []) {
  const refused: string[] = [];
  const path = join(dir, `proxy-${++proxies}.sock`);
  const started: SandboxProxy = await startProxy(path, allow.map(parseDomain), (d) => refused.push(d));
  return { path, refused, close: () => started.close() };
}

/** Everything `socket` sends until it ends, or until it has sent `until` (then it is ended). */
function drain(socket: Socket, until?: string): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1');
      if (until !== undefined && text.endsWith(until)) socket.destroy();
    });
    socket.on('close', () => resolve(text));
  });
}

/** The first line `socket` sends. */
function firstLine(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const onData = (d: Buffer) => {
      text += d.toString('latin1');
      const end = text.indexOf('\n');
      if (end === -1) return;
      socket.off('data', onData);
      socket.pause();
      if (end + 1 < text.length) socket.unshift(Buffer.from(text.slice(end + 1), 'latin1'));
      resolve(text.slice(0, end));
    };
    socket.on('data', onData);
  });
}

interface Inside {
  /** What each stream's server was asked for, in the order asked. */
  asked: string[];
  /** Serves each stream: answers with what `answer` makes of the request head it reads. */
  answer: (head: string) => string;
  /** Sends this first, before reading a request (a server that speaks first). */
  banner?: string;
  /** Hands back 'refused' instead of a stream. */
  nothing?: boolean;
}

/**
 * A client's connection through a forwarder like sandbox-init: the hello, the request, and, when
 * the proxy asks for a destination inside, a stream of its own served by `inside`. Resolves
 * with what the client received after the proxy's first line, and that line.
 */
async function relayed(socketPath: string, request: string, inside: Inside, until?: string) {
  const client = connect(socketPath);
  client.write(RELAY_HELLO + request);
  const line = await firstLine(client);
  const asked = /^\0PROCMUX-INSIDE ([0-9a-f]+) (\S+) (\d+)$/.exec(line);
  const received = drain(client, until);
  client.resume();
  if (asked) {
    inside.asked.push(`${asked[2]}:${asked[3]}`);
    const stream = connect(socketPath);
    stream.write(`PROCMUX-STREAM ${asked[1]} ${inside.nothing ? 'refused' : 'ok'}\r\n\r\n`);
    if (inside.banner) stream.write(inside.banner);
    let head = '';
    stream.on('data', (d: Buffer) => {
      head += d.toString('latin1');
      if (head.includes('\r\n\r\n')) stream.end(inside.answer(head));
    });
    stream.on('error', () => stream.destroy());
  }
  return { line, text: await received };
}

const ok = (body: string) =>
  `HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`;
const requestLine = (head: string) => head.slice(0, head.indexOf('\r\n'));

describe('the sandbox proxy and a sandbox’s own loopback', () => {
  it('pairs each of 20 concurrent requests to loopback with its own stream inside, in origin form', async () => {
    const p = await proxy();
    const inside: Inside = { asked: [], answer: (head) => ok(requestLine(head)) };
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        relayed(
          p.path,
          `GET http://localhost:7000/page-${i} HTTP/1.1\r\nHost: localhost:7000\r\n\r\n`,
          inside,
        ),
      ),
    );
    replies.forEach((reply, i) => {
      expect(reply.text).toMatch(new RegExp(`\\r\\n\\r\\nGET /page-${i} HTTP/1\\.1$`));
    });
    expect(inside.asked).toEqual(Array(20).fill('localhost:7000'));
    expect(p.refused).toEqual([]);
    await p.close();
  });

  it('answers CONNECT through a stream inside, passing on what its server says first', async () => {
    const p = await proxy();
    const inside: Inside = { asked: [], banner: 'SSH-2.0-inside\r\n', answer: () => '' };
    const reply = await relayed(p.path, 'CONNECT [::1]:2222 HTTP/1.1\r\n\r\n', inside, 'inside\r\n');
    expect(reply.text).toBe('HTTP/1.1 200 Connection Established\r\n\r\nSSH-2.0-inside\r\n');
    expect(inside.asked).toEqual(['::1:2222']);
    await p.close();
  });

  it('refuses, and tells, a loopback port nothing listens on inside; an allowed one reaches the host', async () => {
    const p = await proxy([`localhost:${hostPort}`]);
    const nothing: Inside = { asked: [], nothing: true, answer: () => '' };
    const refused = await relayed(p.path, 'GET http://127.0.0.1:7001/ HTTP/1.1\r\nHost: x\r\n\r\n', nothing);
    expect(refused.text).toMatch(/^HTTP\/1\.1 403 Forbidden/);
    expect(refused.text).toMatch(
      /connection to 127\.0\.0\.1:7001 refused \(nothing listens on it inside the sandbox, and this host's is not in the allow list\)\n$/,
    );
    expect(p.refused).toEqual(['127.0.0.1:7001']);
    const host = await relayed(
      p.path,
      `GET http://localhost:${hostPort}/ HTTP/1.1\r\nHost: x\r\n\r\n`,
      nothing,
    );
    expect(host.text).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*host body$/);
    expect(nothing.asked).toEqual(['127.0.0.1:7001', `localhost:${hostPort}`]);
    await p.close();
  });

  it('says OUTSIDE first for any other destination, and asks nothing of a forwarder without the hello', async () => {
    const p = await proxy();
    const inside: Inside = { asked: [], answer: () => ok('inside') };
    const other = await relayed(
      p.path,
      'GET http://example.com/ HTTP/1.1\r\nHost: example.com\r\n\r\n',
      inside,
    );
    expect(other.line).toBe(OUTSIDE_LINE.slice(0, -1));
    expect(other.text).toMatch(/^HTTP\/1\.1 403 Forbidden[\s\S]*refused \(not in the allow list\)\n$/);
    // socat's relay, or an older sandbox-init: the proxy's answer is its first byte.
    const plain = connect(p.path);
    plain.write('GET http://localhost:7000/ HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await drain(plain)).toMatch(/^HTTP\/1\.1 403 Forbidden/);
    const garbled = connect(p.path);
    garbled.write(`${RELAY_HELLO}BREW coffee\r\n\r\n`);
    expect(await drain(garbled)).toBe(
      `${OUTSIDE_LINE}HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\nprocmux sandbox proxy: absolute URL or CONNECT expected\n`,
    );
    expect(inside.asked).toEqual([]);
    expect(p.refused).toEqual(['example.com', 'localhost:7000']);
    await p.close();
  });

  it('destroys a stream no request waits for, and one that comes after its client went away', async () => {
    const p = await proxy();
    const stray = connect(p.path);
    stray.write(`PROCMUX-STREAM ${'0'.repeat(32)} ok\r\n\r\nGET / HTTP/1.1\r\n\r\n`);
    expect(await drain(stray)).toBe('');
    const client = connect(p.path);
    client.write(`${RELAY_HELLO}GET http://localhost:7000/ HTTP/1.1\r\nHost: x\r\n\r\n`);
    const id = /^\0PROCMUX-INSIDE ([0-9a-f]+) /.exec(await firstLine(client))?.[1];
    client.destroy();
    await new Promise((resolve) => client.on('close', resolve));
    const late = connect(p.path);
    late.write(`PROCMUX-STREAM ${id} ok\r\n\r\n`);
    expect(await drain(late)).toBe('');
    // The proxy still serves.
    const inside: Inside = { asked: [], answer: () => ok('still') };
    expect(
      (await relayed(p.path, 'GET http://localhost:7000/ HTTP/1.1\r\nHost: x\r\n\r\n', inside)).text,
    ).toMatch(/still$/);
    await p.close();
  });

  it('reads loopback destinations as the sandbox’s own, and nothing else', () => {
    expect(
      ['localhost', 'LOCALHOST', 'app.localhost', '127.0.0.1', '127.1.2.3', '0.0.0.0', '[::1]', '[::]'].map(
        insideAddress,
      ),
    ).toEqual(['localhost', 'localhost', 'localhost', '127.0.0.1', '127.1.2.3', '0.0.0.0', '::1', '::']);
    for (const other of [
      'example.com',
      '10.0.0.1',
      '128.0.0.1',
      '[::2]',
      'localhost.example.com',
      '127.0.0.1.nip.io',
    ])
      expect(insideAddress(other), other).toBeUndefined();
    expect(
      new InsideStreams().take(
        'GET / HTTP/1.1',
        connect(join(dir, 'none.sock')).on('error', () => {}),
        Buffer.alloc(0),
      ),
    ).toBe(false);
  });
});
