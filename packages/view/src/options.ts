import { randomBytes } from 'node:crypto';
import { booleanOption, functionOption, integerOption, invalidOption } from '@procmux/core-types';
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
  const port = integerOption('port', options.port, { min: 0, max: 65_535, default: 0 });
  const host = options.host ?? '127.0.0.1';
  if (typeof host !== 'string' || host === '') {
    throw invalidOption('host', 'an address such as 127.0.0.1', { value: host });
  }
  const loopback = isLoopback(host);
  if (!loopback && !booleanOption('allowNonLoopback', options.allowNonLoopback, false)) {
    throw invalidOption(
      'host',
      `a loopback address (127.0.0.1, ::1, localhost): the view binds 127.0.0.1 only; binding ${host} exposes every session to the network and needs allowNonLoopback: true`,
      { values: [...LOOPBACK] },
    );
  }
  const token = options.token ?? randomBytes(32).toString('base64url');
  // The token is a secret: never echoed.
  if (typeof token !== 'string' || token.length < 16 || !/^[A-Za-z0-9_-]+$/.test(token)) {
    throw invalidOption('token', 'at least 16 characters of A-Z, a-z, 0-9, "-" and "_"');
  }
  return {
    port,
    host,
    loopback,
    token,
    log: functionOption<(line: string) => void>('log', options.log) ?? (() => {}),
  };
}
