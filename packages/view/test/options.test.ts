// The view's options, without a server: each refusal says what is allowed, and the token (a
// secret) is never echoed.
import { invalidOptionMessage } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { resolveViewOptions } from '../src/options.js';

describe('resolveViewOptions', () => {
  it('defaults to any free port on 127.0.0.1 with a fresh token', () => {
    const resolved = resolveViewOptions();
    expect(resolved).toMatchObject({ port: 0, host: '127.0.0.1', loopback: true });
    expect(resolved.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(resolveViewOptions().token).not.toBe(resolved.token);
  });

  it('refuses a bad port or host, and a non-loopback host unless allowed', () => {
    expect(invalidOptionMessage(() => resolveViewOptions({ port: 70_000 }))).toBe(
      'port must be an integer from 0 to 65535 (got 70000)',
    );
    expect(invalidOptionMessage(() => resolveViewOptions({ host: '' }))).toBe(
      'host must be an address such as 127.0.0.1 (got "")',
    );
    expect(invalidOptionMessage(() => resolveViewOptions({ host: '0.0.0.0' }))).toMatch(
      /^host must be a loopback address .* needs allowNonLoopback: true$/,
    );
    expect(resolveViewOptions({ host: '0.0.0.0', allowNonLoopback: true }).loopback).toBe(false);
  });

  it('refuses a weak token without showing it', () => {
    const message = invalidOptionMessage(() => resolveViewOptions({ token: 'short-secret' }));
    expect(message).toBe('token must be at least 16 characters of A-Z, a-z, 0-9, "-" and "_"');
    expect(message).not.toContain('short-secret');
  });
});
