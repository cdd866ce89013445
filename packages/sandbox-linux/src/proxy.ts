// The host side of a sandbox's network: an HTTP proxy (CONNECT and absolute-URI requests) on a
// unix socket bound into the sandbox, letting through only the allow list and telling every
// refusal. The destination is fixed per connection, so a kept-alive connection cannot switch host.
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { type AllowedDomain, domainAllowed } from './policy.js';

const MAX_HEAD_BYTES = 64 * 1024;

export interface SandboxProxy {
  close(): Promise<void>;
}

/** Starts listening on `socketPath`; `onRefused` gets `host` or `host:port` of each refusal. */
export function startProxy(
  socketPath: string,
  allow: readonly AllowedDomain[],
  onRefused: (destination: string) => void,
): Promise<SandboxProxy> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    readHead(client, (head, rest) => serve(client, head, rest, allow, onRefused, sockets));
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

function serve(
  client: Socket,
  head: string,
  rest: Buffer,
  allow: readonly AllowedDomain[],
  onRefused: (destination: string) => void,
  sockets: Set<Socket>,
): void {
  const [requestLine = '', ...headers] = head.split('\r\n');
  const [method = '', target = '', version = 'HTTP/1.1'] = requestLine.split(' ');
  const destination = method === 'CONNECT' ? authority(target, 443) : absoluteUrl(target);
  if (!destination) {
    client.end(
      'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\nprocmux sandbox proxy: absolute URL or CONNECT expected\n',
    );
    return;
  }
  const { host, port } = destination;
  if (!domainAllowed(allow, host, port)) {
    const name = port === 80 || port === 443 ? host : `${host}:${port}`;
    onRefused(name);
    client.end(
      `HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nprocmux sandbox: connection to ${name} refused (not in the allow list)\n`,
    );
    return;
  }
  const upstream = createConnection({ host, port });
  sockets.add(upstream);
  upstream.on('close', () => {
    sockets.delete(upstream);
    client.destroy();
  });
  client.on('close', () => upstream.destroy());
  upstream.on('error', () => {
    if (upstream.connecting) client.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n');
    upstream.destroy();
  });
  upstream.on('connect', () => {
    if (method === 'CONNECT') {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    } else {
      const kept = headers.filter((h) => !/^(proxy-connection|connection|keep-alive):/i.test(h));
      upstream.write(
        `${method} ${destination.path} ${version}\r\n${[...kept, 'Connection: close'].join('\r\n')}\r\n\r\n`,
      );
    }
    if (rest.length > 0) upstream.write(rest);
    client.pipe(upstream);
    upstream.pipe(client);
    client.resume();
  });
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
