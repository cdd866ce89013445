import { randomBytes } from 'node:crypto';
import { ProcmuxError } from '@procmux/core-types';
import type { ViewOptions } from './types.js';

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

export interface ResolvedViewOptions {
  port: number;
  host: string;
  loopback: boolean;
  token: string;
  log: (line: string) => void;
}

export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host);
}

/** Checks the options; a bad value is ERR_INVALID_OPTION saying what is allowed. */
export function resolveViewOptions(options: ViewOptions = {}): ResolvedViewOptions {
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new ProcmuxError('ERR_INVALID_OPTION', `port must be an integer from 0 to 65535 (got ${port})`);
  }
  const host = options.host ?? '127.0.0.1';
  if (typeof host !== 'string' || host === '') {
    throw new ProcmuxError('ERR_INVALID_OPTION', 'host must be an address such as 127.0.0.1');
  }
  const loopback = isLoopback(host);
  if (!loopback && options.allowNonLoopback !== true) {
    throw new ProcmuxError(
      'ERR_INVALID_OPTION',
      `the view binds 127.0.0.1 only; binding ${host} exposes every session to the network and needs allowNonLoopback: true`,
    );
  }
  const token = options.token ?? randomBytes(32).toString('base64url');
  if (typeof token !== 'string' || token.length < 16 || !/^[A-Za-z0-9_-]+$/.test(token)) {
    throw new ProcmuxError(
      'ERR_INVALID_OPTION',
      'token must be at least 16 characters of A-Z, a-z, 0-9, "-" and "_"',
    );
  }
  return { port, host, loopback, token, log: options.log ?? (() => {}) };
}
