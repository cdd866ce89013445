import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Why a request is refused, or null when it may go on. */
export type Refusal = string | null;

/**
 * Every request (page, asset, WebSocket) must carry the token, name this server in Host (so
 * a DNS-rebound name cannot reach it), and, when it says where it comes from, come from the
 * page itself. WebSockets must say (browsers always send Origin on them).
 */
export function checkRequest(
  request: IncomingMessage,
  token: string,
  allowedHosts: ReadonlySet<string>,
  websocket: boolean,
): Refusal {
  const url = new URL(request.url ?? '/', 'http://view.invalid');
  const given = url.searchParams.get('token');
  if (given === null) return 'missing token';
  if (!sameSecret(given, token)) return 'wrong token';
  return checkPlace(request, allowedHosts, websocket);
}

/**
 * The Host and Origin checks alone (a one-time secret page carries its own ticket instead of
 * the token): `requireOrigin` for what changes something (a WebSocket, a form's POST).
 */
export function checkPlace(
  request: IncomingMessage,
  allowedHosts: ReadonlySet<string>,
  requireOrigin: boolean,
): Refusal {
  const host = request.headers.host;
  if (host === undefined || !allowedHosts.has(host.toLowerCase())) return 'unexpected Host';
  const origin = request.headers.origin;
  if (origin === undefined) return requireOrigin ? 'missing Origin' : null;
  if (origin.toLowerCase() !== `http://${host.toLowerCase()}`) return 'foreign Origin';
  return null;
}

function sameSecret(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Host header values that name this server: the bound address and, on loopback, its names. */
export function allowedHostHeaders(host: string, port: number, loopback: boolean): Set<string> {
  const names = loopback ? ['127.0.0.1', 'localhost', '[::1]'] : [host.includes(':') ? `[${host}]` : host];
  return new Set(names.map((name) => `${name}:${port}`.toLowerCase()));
}
