// `procmux mcp --http`: the same tools and resources over Streamable HTTP to several clients
// at once, each with its own MCP session and its own sessions (owner = that client). A bearer
// token made at start guards every request; Host and Origin must name this server, so a page
// on another site (DNS rebinding) cannot reach it.
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { type HostOptions, openServerHost, resourceSessions, type ServerHost } from './host.js';
import type { ServeHandle } from './serve.js';
import { createProcmuxServer } from './server.js';
import { stderrLog } from './stderr-log.js';

/** Where `--http` listens; port 0 picks a free one. */
export interface HttpRequest {
  port: number;
  host: string;
}

export interface HttpServeHandle extends ServeHandle {
  /** `http://HOST:PORT/mcp`. */
  readonly url: string;
  /** The bearer token every request must carry. */
  readonly token: string;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * Serves the procmux tools over MCP on Streamable HTTP. Clients come and go; their sessions
 * stay until close() (wired to SIGINT/SIGTERM by the CLI), which kills every session before
 * `closed` resolves.
 */
export async function serveHttp(options: HostOptions & { http: HttpRequest }): Promise<HttpServeHandle> {
  const { log, dispose } = options.log ? { log: options.log, dispose: () => {} } : stderrLog();
  const host = await openServerHost(options, log).catch((error: unknown) => {
    dispose();
    throw error;
  });
  const token = randomBytes(24).toString('base64url');
  const clients = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      log(`procmux mcp http: request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) reply(response, 500, 'internal error');
    });
  });
  let allowedHosts = new Set<string>();

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const refusal = refuse(request, token, allowedHosts);
    if (refusal) {
      log(`procmux mcp http: refused a request (${refusal.why})`);
      if (refusal.status === 401) response.setHeader('WWW-Authenticate', 'Bearer');
      return reply(response, refusal.status, refusal.why);
    }
    const id = request.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const transport = clients.get(id);
      if (!transport) return reply(response, 404, 'unknown or ended MCP session; initialize again');
      return transport.handleRequest(request, response);
    }
    // No session yet: this must be an initialize, which makes a client of its own.
    await newClient(host).handleRequest(request, response);
  }

  function newClient(h: ServerHost): StreamableHTTPServerTransport {
    const owner = `http:${randomUUID()}`;
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (sessionId) => {
        clients.set(sessionId, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) clients.delete(transport.sessionId);
    };
    const server = createProcmuxServer(h.tools, {
      sessions: resourceSessions(h),
      owner,
      ...(h.view ? { secretPages: h.view } : {}),
      ...(h.sandbox ? { sandbox: { workspace: h.cwd, ...h.sandbox } } : {}),
    });
    void server.connect(transport);
    return transport;
  }

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.http.port, options.http.host, () => {
      http.off('error', reject);
      resolve();
    });
  }).catch(async (error: unknown) => {
    await host.close('could not listen');
    dispose();
    throw error;
  });
  const { port } = http.address() as AddressInfo;
  const loopback = LOOPBACK.has(options.http.host);
  const shown = loopback
    ? '127.0.0.1'
    : options.http.host.includes(':')
      ? `[${options.http.host}]`
      : options.http.host;
  allowedHosts = new Set(
    (loopback ? ['127.0.0.1', 'localhost', '[::1]'] : [shown]).map((name) => `${name}:${port}`.toLowerCase()),
  );
  if (!loopback) {
    log(
      `procmux mcp: WARNING: --http-host ${options.http.host} is not loopback: anyone who can reach it and learns the token can run commands as this user`,
    );
  }
  const url = `http://${shown}:${port}/mcp`;
  log(`procmux mcp http: ${url} bearer=${token}`);

  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  let closing: Promise<void> | undefined;
  const close = (reason = 'asked to stop') => {
    closing ??= (async () => {
      http.close();
      for (const transport of clients.values()) await transport.close().catch(() => {});
      clients.clear();
      http.closeAllConnections();
      await host.close(reason);
      dispose();
      resolveClosed();
    })();
    return closing;
  };
  return { url, token, closed, close };
}

/** Why a request may not go on: a foreign Host or Origin (403), no or a wrong token (401). */
function refuse(
  request: IncomingMessage,
  token: string,
  allowedHosts: ReadonlySet<string>,
): { status: 401 | 403 | 404; why: string } | null {
  const path = new URL(request.url ?? '/', 'http://procmux.invalid').pathname;
  const hostHeader = request.headers.host?.toLowerCase();
  if (hostHeader === undefined || !allowedHosts.has(hostHeader))
    return { status: 403, why: 'unexpected Host' };
  const origin = request.headers.origin;
  if (origin !== undefined && origin.toLowerCase() !== `http://${hostHeader}`) {
    return { status: 403, why: 'foreign Origin' };
  }
  const auth = request.headers.authorization ?? '';
  const given = auth.startsWith('Bearer ') ? auth.slice('Bearer '.length) : '';
  if (!sameSecret(given, token))
    return { status: 401, why: given === '' ? 'missing bearer token' : 'wrong bearer token' };
  if (path !== '/mcp') return { status: 404, why: `no endpoint ${path}; use /mcp` };
  return null;
}

function sameSecret(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function reply(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
