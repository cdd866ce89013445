import { mkdirSync, mkdtempSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isProcmuxError, type ProcmuxErrorCode } from '@procmux/core-types';
import { describe, expect, it } from 'vitest';
import {
  commandFingerprint,
  type PolicyRequest,
  PROCESS_SESSION_LIMITS,
  resolveSessionCwd,
} from '../src/index.js';
import { resolveProcessSessionLimits } from '../src/limits.js';
import { resolveOwnerKey } from '../src/owner.js';
import { enforcePolicy } from '../src/policy.js';
import { resolveTerminal } from '../src/terminal.js';

function codeOf(fn: () => unknown): ProcmuxErrorCode | undefined {
  try {
    fn();
  } catch (error) {
    return isProcmuxError(error) ? error.code : undefined;
  }
  return undefined;
}

describe('resolveProcessSessionLimits', () => {
  it('fills every default from the table', () => {
    const limits = resolveProcessSessionLimits();
    expect(limits).toMatchObject({
      maxSessions: 8,
      maxInputBytes: 64 * 1024,
      maxLifetimeMs: 4 * 3600_000,
      maxOutputChunkBytes: 50 * 1024,
      maxOutputBytes: 64 * 1024 * 1024,
      maxPtyAttachTimeoutMs: 30_000,
      maxResizesPerMinute: 60,
      maxPtyBackendMetadataBytes: 4096,
      maxTerminalColumns: 120,
      maxTerminalRows: 40,
      maxTermBytes: 64,
    });
  });

  it('accepts each hard cap and refuses one past it, never clamping', () => {
    for (const [key, limit] of Object.entries(PROCESS_SESSION_LIMITS)) {
      expect(
        resolveProcessSessionLimits({ [key]: limit.hard })[key as keyof typeof PROCESS_SESSION_LIMITS],
      ).toBe(limit.hard);
      expect(codeOf(() => resolveProcessSessionLimits({ [key]: limit.hard + 1 }))).toBe('ERR_INVALID_OPTION');
      expect(codeOf(() => resolveProcessSessionLimits({ [key]: 0 }))).toBe('ERR_INVALID_OPTION');
    }
  });

  it('refuses wrong types and unknown keys with a message naming what is allowed', () => {
    expect(codeOf(() => resolveProcessSessionLimits({ maxSessions: '8' as unknown as number }))).toBe(
      'ERR_INVALID_OPTION',
    );
    expect(() => resolveProcessSessionLimits({ maxSesions: 4 } as never)).toThrow(
      /unknown limit "maxSesions"; allowed: maxSessions/,
    );
    expect(() => resolveProcessSessionLimits({ maxSessions: 33 })).toThrow(
      'limits.maxSessions must be an integer from 1 to 32 (got 33)',
    );
    expect(codeOf(() => resolveProcessSessionLimits(null as never))).toBe('ERR_INVALID_OPTION');
  });
});

describe('resolveSessionCwd', () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'procmux-cwd-')));
  mkdirSync(join(root, 'inner/deep'), { recursive: true });
  const outside = realpathSync(mkdtempSync(join(tmpdir(), 'procmux-out-')));
  symlinkSync(outside, join(root, 'escape'));
  symlinkSync(join(root, 'inner'), join(root, 'alias'));

  it('resolves relative and absolute paths inside the workspace', () => {
    expect(resolveSessionCwd(root)).toBe(root);
    expect(resolveSessionCwd(root, 'inner/deep')).toBe(join(root, 'inner/deep'));
    expect(resolveSessionCwd(root, join(root, 'inner'))).toBe(join(root, 'inner'));
    expect(resolveSessionCwd(root, 'alias')).toBe(join(root, 'inner'));
  });

  it('refuses .. and symlinks that lead outside', () => {
    expect(codeOf(() => resolveSessionCwd(root, '..'))).toBe('ERR_PROCESS_POLICY');
    expect(codeOf(() => resolveSessionCwd(root, 'escape'))).toBe('ERR_PROCESS_POLICY');
    expect(codeOf(() => resolveSessionCwd(root, outside))).toBe('ERR_PROCESS_POLICY');
    expect(codeOf(() => resolveSessionCwd(root, 'missing'))).toBe('ERR_PROCESS_POLICY');
    expect(codeOf(() => resolveSessionCwd(root, 5 as never))).toBe('ERR_INVALID_OPTION');
  });

  it('does not treat a sibling with a common prefix as inside', () => {
    const sibling = `${root}-sibling`;
    mkdirSync(sibling);
    expect(codeOf(() => resolveSessionCwd(root, sibling))).toBe('ERR_PROCESS_POLICY');
  });
});

describe('commandFingerprint', () => {
  it('is the SHA-256 of [command, ...args] and ignores everything else', () => {
    const a = commandFingerprint('python3', ['-i']);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(commandFingerprint('python3', ['-i'])).toBe(a);
    expect(commandFingerprint('python3', ['-i', ''])).not.toBe(a);
    // Argument boundaries matter: "a b" is not ["a", "b"].
    expect(commandFingerprint('echo', ['a b'])).not.toBe(commandFingerprint('echo', ['a', 'b']));
  });
});

describe('resolveOwnerKey', () => {
  it('prefers the request owner, then ownership, then identity', () => {
    expect(resolveOwnerKey('alice', { tenantId: 't', userId: 'u' }, { agentId: 'a' })).toBe('alice');
    expect(resolveOwnerKey(undefined, { tenantId: 't', userId: 'u' }, { agentId: 'a' })).toBe('t:u');
    expect(resolveOwnerKey(undefined, undefined, { tenantId: 't', agentId: 'a' })).toBe('t:a');
    expect(resolveOwnerKey(undefined, undefined, undefined)).toBeUndefined();
    expect(resolveOwnerKey(undefined, {}, undefined)).toBeUndefined();
  });
});

describe('enforcePolicy', () => {
  const request: PolicyRequest = {
    action: 'start',
    owner: 'o',
    command: 'rm',
    args: ['-rf', '/'],
    cwd: '/w',
    fingerprint: 'f',
    pty: false,
  };

  it('allows when no policy, true, or {allow: true}', async () => {
    await expect(enforcePolicy(undefined, request)).resolves.toBeUndefined();
    await expect(enforcePolicy(() => true, request)).resolves.toBeUndefined();
    await expect(enforcePolicy({ check: async () => ({ allow: true }) }, request)).resolves.toBeUndefined();
  });

  it('denies with the policy reason', async () => {
    await expect(
      enforcePolicy(() => ({ allow: false, reason: 'rm is not allowed' }), request),
    ).rejects.toMatchObject({
      code: 'ERR_PROCESS_POLICY',
      message: 'policy denied start: rm is not allowed',
    });
    await expect(enforcePolicy(() => false, request)).rejects.toMatchObject({ code: 'ERR_PROCESS_POLICY' });
  });

  it('fails closed when the policy throws', async () => {
    await expect(
      enforcePolicy(() => {
        throw new Error('db down');
      }, request),
    ).rejects.toMatchObject({ code: 'ERR_PROCESS_POLICY', message: 'policy check for start failed; denied' });
  });
});

describe('resolveTerminal', () => {
  const limits = resolveProcessSessionLimits();
  it('defaults to 120x40 xterm-256color', () => {
    expect(resolveTerminal(undefined, limits)).toEqual({ columns: 120, rows: 40, term: 'xterm-256color' });
  });
  it('enforces the bounds and the hard caps when raised', () => {
    expect(codeOf(() => resolveTerminal({ columns: 121 }, limits))).toBe('ERR_INVALID_OPTION');
    expect(codeOf(() => resolveTerminal({ rows: 0 }, limits))).toBe('ERR_INVALID_OPTION');
    expect(codeOf(() => resolveTerminal({ term: 'x'.repeat(65) }, limits))).toBe('ERR_INVALID_OPTION');
    expect(codeOf(() => resolveTerminal({ term: 'xterm bad' }, limits))).toBe('ERR_INVALID_OPTION');
    const wide = resolveProcessSessionLimits({
      maxTerminalColumns: 500,
      maxTerminalRows: 200,
      maxTermBytes: 256,
    });
    expect(resolveTerminal({ columns: 500, rows: 200, term: 'x'.repeat(256) }, wide).columns).toBe(500);
  });
});
