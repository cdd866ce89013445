import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { invalidOption, isProcmuxError } from '@procmux/core-types';
import { WebSocketServer } from 'ws';
import { loadAssets, pageHtml } from './assets.js';
import { allowedHostHeaders, checkPlace, checkRequest } from './guard.js';
import { ListChannel } from './list-channel.js';
import { resolveViewOptions } from './options.js';
import { SecretPages } from './secret-page.js';
import { attachSession } from './session-channel.js';
import type { ViewOptions, ViewServer, ViewSession, ViewSessions } from './types.js';

const SECURITY_HEADERS = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  // xterm.js sets styles from script; nothing else runs but the page's own files.
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; " +
    "img-src 'self' data:; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};

/**
 * Serves a local page where a person watches the registry's sessions live and can take the
 * keyboard of one (the model's input to it is refused meanwhile). Binds 127.0.0.1 and a free
 * port by default; every request needs the random token in `url`.
 *
 * @example
 * const view = await serveView(sessions);
 * console.error(`procmux view: ${view.url}`);
 * // ...
 * await view.close();
 */
export async function serveView(sessions: ViewSessions, options: ViewOptions = {}): Promise<ViewServer> {
  const resolved = resolveViewOptions(options);
  const { token, log } = resolved;
  const assets = loadAssets();
  const list = new ListChannel(sessions);
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  let allowedHosts = new Set<string>();
  let tabs = 0;
  const secrets = new SecretPages();

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', 'http://view.invalid').pathname;
    if (path.startsWith('/secret/')) {
      const refusal = checkPlace(request, allowedHosts, request.method === 'POST');
      if (refusal !== null) return refuse(response, refusal);
      secrets.handle(request, response, path);
      return;
    }
    const refusal = checkRequest(request, token, allowedHosts, false);
    if (refusal !== null) return refuse(response, refusal);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { ...SECURITY_HEADERS, allow: 'GET, HEAD' }).end();
      return;
    }
    const asset =
      path === '/'
        ? { body: Buffer.from(pageHtml(token)), type: 'text/html; charset=utf-8' }
        : assets.get(path);
    if (!asset) {
      response.writeHead(404, { ...SECURITY_HEADERS, 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    response.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': asset.type,
      'content-length': asset.body.length,
    });
    response.end(request.method === 'HEAD' ? undefined : asset.body);
  });

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const refusal = checkRequest(request, token, allowedHosts, true);
    const url = new URL(request.url ?? '/', 'http://view.invalid');
    if (refusal !== null) {
      log(`procmux view: refused a WebSocket (${refusal})`);
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    let session: ViewSession | undefined;
    if (url.pathname === '/ws/session') {
      try {
        session = sessions.get(url.searchParams.get('id') ?? '') as ViewSession;
      } catch (error) {
        if (!isProcmuxError(error)) throw error;
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return;
      }
    } else if (url.pathname !== '/ws/sessions') {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      if (!session) return list.add(ws);
      tabs += 1;
      void attachSession(ws, session, `view tab ${tabs}`).catch((error: unknown) => {
        ws.close(1011, isProcmuxError(error) ? error.message.slice(0, 120) : 'attach failed');
      });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        invalidOption(
          'port',
          `a port the view can listen on: it cannot listen on ${resolved.host}:${resolved.port} (${error.code ?? 'error'}); pick another port, or 0 for any free one`,
          { cause: error },
        ),
      ),
    );
    server.listen(resolved.port, resolved.host, () => {
      server.removeAllListeners('error');
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : resolved.port;
  allowedHosts = allowedHostHeaders(resolved.host, port, resolved.loopback);
  const urlHost = resolved.loopback
    ? '127.0.0.1'
    : resolved.host.includes(':')
      ? `[${resolved.host}]`
      : resolved.host;
  if (!resolved.loopback) {
    log(
      `procmux view: WARNING: listening on ${resolved.host}, not 127.0.0.1: anyone who can reach it and learns the token can watch and type into these sessions`,
    );
  }
  let closing: Promise<void> | undefined;
  const origin = `http://${urlHost}:${port}`;
  return {
    url: `${origin}/?token=${token}`,
    port,
    host: resolved.host,
    token,
    askSecret: (request) => secrets.offer(origin, request),
    close() {
      closing ??= (async () => {
        secrets.close();
        list.close();
        // Closing a page's socket releases any control it held.
        for (const client of wss.clients) client.terminate();
        wss.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      })();
      return closing;
    },
  };
}

function refuse(response: ServerResponse, reason: string): void {
  response.writeHead(403, { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8' });
  response.end(`403 forbidden: ${reason}. Open the URL procmux printed (it carries the token).\n`);
}
