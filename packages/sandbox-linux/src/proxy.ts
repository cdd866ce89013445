// The host side of a sandbox's network: an HTTP proxy (CONNECT and absolute-URI requests) on a
// unix socket bound into the sandbox, letting through only the allow list and telling every
// refusal. The destination is fixed per connection, so a kept-alive connection cannot switch host.
// A loopback destination is the sandbox's own first (inside.ts): a server the program started
// there answers, and only where nothing listens inside does the allow list decide.
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { type InsideStream, InsideStreams, insideAddress, OUTSIDE_LINE, RELAY_HELLO } from './inside.js';
import { type AllowedDomain, domainAllowed } from './policy.js';

const MAX_HEAD_BYTES = 64 * 1024;

export interface SandboxProxy {
  close(): Promise<void>;
}

interface Request {
  method: string;
  version: string;
  headers: string[];
  host: string;
  port: number;
  path: string;
  /** What the client sent after its head. */
  rest: Buffer;
}

interface Context {
  allow: readonly AllowedDomain[];
  onRefused: (destination: string) => void;
  sockets: Set<Socket>;
  inside: InsideStreams;
}

/** Starts listening on `socketPath`; `onRefused` gets `host` or `host:port` of each refusal. */
export function startProxy(
  socketPath: string,
  allow: readonly AllowedDomain[],
  onRefused: (destination: string) => void,
): Promise<SandboxProxy> {
  const context: Context = { allow, onRefused, sockets: new Set(), inside: new InsideStreams() };
  const { sockets } = context;
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    readHead(client, (head, rest) => {
      if (!context.inside.take(head, client, rest)) serve(client, head, rest, context);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve({
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

function readHead(client: Socket, then: (head: string, rest: Buffer) => void): void {
  let buffered = Buffer.alloc(0);
  const onData = (data: Buffer) => {
    buffered = Buffer.concat([buffered, data]);
    const end = buffered.indexOf('\r\n\r\n');
    if (end === -1) {
      if (buffered.length > MAX_HEAD_BYTES) client.destroy();
      return;
    }
    client.off('data', onData);
    client.pause();
    then(buffered.subarray(0, end).toString('latin1'), buffered.subarray(end + 4));
  };
  client.on('data', onData);
}

function serve(client: Socket, head: string, rest: Buffer, context: Context): void {
  // Only sandbox-init's connections start with its line; it alone can reach the loopback inside.
  const relayed = head.startsWith(RELAY_HELLO);
  const request = parseRequest(relayed ? head.slice(RELAY_HELLO.length) : head, rest);
  const address = relayed && request ? insideAddress(request.host) : undefined;
  if (relayed && address === undefined) client.write(OUTSIDE_LINE);
  if (!request) {
    client.end(
      'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\nprocmux sandbox proxy: absolute URL or CONNECT expected\n',
    );
    return;
  }
  const inside = address === undefined ? undefined : context.inside.open(client, address, request.port);
  if (inside === undefined) {
    outside(client, request, context);
    return;
  }
  void inside.then((stream) => {
    if (stream === undefined) outside(client, request, context, true);
    else if (client.destroyed) stream.socket.destroy();
    else {
      link(client, stream.socket, context.sockets);
      tunnel(client, stream, request);
    }
  });
}

/**
 * A destination on the host's side: the allow list's, or refused and told (for a loopback one,
 * `triedInside`, the answer says nothing listens there inside either).
 */
function outside(client: Socket, request: Request, context: Context, triedInside = false): void {
  if (client.destroyed) return;
  const { host, port } = request;
  if (!domainAllowed(context.allow, host, port)) {
    const name = port === 80 || port === 443 ? host : `${host}:${port}`;
    context.onRefused(name);
    const why = triedInside
      ? "nothing listens on it inside the sandbox, and this host's is not in the allow list"
      : 'not in the allow list';
    client.end(
      `HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nprocmux sandbox: connection to ${name} refused (${why})\n`,
    );
    return;
  }
  const upstream = createConnection({ host, port });
  let connected = false;
  upstream.on('error', (error: NodeJS.ErrnoException) => {
    // Not yet connected: the name did not resolve, or nothing answered there. Said, not a
    // silent close (`socket.connecting` is already false when 'error' comes, so this was one).
    if (!connected) client.end(unreachable(request, error));
    upstream.destroy();
  });
  upstream.on('connect', () => {
    connected = true;
    tunnel(client, { socket: upstream, early: Buffer.alloc(0) }, request);
  });
  // Tracked from the start, so that close() ends a connect still under way.
  link(client, upstream, context.sockets);
}

/** Each side ends with the other; close() ends the upstream too. */
function link(client: Socket, upstream: Socket, sockets: Set<Socket>): void {
  sockets.add(upstream);
  upstream.on('close', (hadError) => {
    sockets.delete(upstream);
    // An upstream that ended cleanly leaves the client to finish writing what it still holds
    // (destroyed, a 32 MiB answer lost its tail under load), and so does a client already
    // answered (the 502 of an upstream that never connected); one that failed ends it now.
    if (hadError && !client.writableEnded) client.destroy();
    else client.end();
  });
  client.on('close', () => upstream.destroy());
}

/** The answer for an allowed destination this host could not reach, and why (an errno code). */
function unreachable(request: Request, error: NodeJS.ErrnoException): string {
  const { host, port } = request;
  const why = error.code === 'ENOTFOUND' ? `${host} does not resolve here` : (error.code ?? error.message);
  return `HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nprocmux sandbox: ${host}:${port} is allowed but could not be reached from this host (${why})\n`;
}

/** Joins the client to a connected upstream: CONNECT's answer, or the request in origin form. */
function tunnel(client: Socket, stream: InsideStream, request: Request): void {
  const upstream = stream.socket;
  if (request.method === 'CONNECT') {
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
  } else {
    const kept = request.headers.filter((h) => !/^(proxy-connection|connection|keep-alive):/i.test(h));
    upstream.write(
      `${request.method} ${request.path} ${request.version}\r\n${[...kept, 'Connection: close'].join('\r\n')}\r\n\r\n`,
    );
  }
  if (request.rest.length > 0) upstream.write(request.rest);
  if (stream.early.length > 0) client.write(stream.early);
  client.pipe(upstream);
  upstream.pipe(client);
  client.resume();
  upstream.resume();
}

function parseRequest(head: string, rest: Buffer): Request | undefined {
  const [requestLine = '', ...headers] = head.split('\r\n');
  const [method = '', target = '', version = 'HTTP/1.1'] = requestLine.split(' ');
  const destination = method === 'CONNECT' ? authority(target, 443) : absoluteUrl(target);
  if (!destination) return undefined;
  return { method, version, headers, rest, ...destination };
}

function authority(
  value: string,
  defaultPort: number,
): { host: string; port: number; path: string } | undefined {
  const match = /^(\[[^\]]+\]|[^:/]+)(?::(\d{1,5}))?$/.exec(value);
  if (!match) return undefined;
  return { host: match[1]!, port: match[2] ? Number(match[2]) : defaultPort, path: '' };
}

function absoluteUrl(value: string): { host: string; port: number; path: string } | undefined {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:') return undefined;
    return {
      host: url.hostname,
      port: url.port ? Number(url.port) : 80,
      path: `${url.pathname}${url.search}`,
    };
  } catch {
    return undefined;
  }
}
