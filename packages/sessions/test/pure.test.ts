import { mkdirSync, mkdtempSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { resolveProcessSessionLimits } from '@procmux/registry';
import { testTmpdir, throwsWith } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { commandFingerprint, type PolicyRequest, resolveSessionCwd } from '../src/index.js';
import { enforcePolicy } from '../src/session/policy.js';
import { resolveTerminal } from '../src/session/terminal.js';

describe('resolveSessionCwd', () => {
  const root = realpathSync(mkdtempSync(join(testTmpdir(), 'procmux-cwd-')));
  mkdirSync(join(root, 'inner/deep'), { recursive: true });
  const outside = realpathSync(mkdtempSync(join(testTmpdir(), 'procmux-out-')));
  symlinkSync(outside, join(root, 'escape'));
  symlinkSync(join(root, 'inner'), join(root, 'alias'));

  it('resolves relative and absolute paths inside the workspace', () => {
    expect(resolveSessionCwd(root)).toBe(root);
    expect(resolveSessionCwd(root, 'inner/deep')).toBe(join(root, 'inner/deep'));
    expect(resolveSessionCwd(root, join(root, 'inner'))).toBe(join(root, 'inner'));
    expect(resolveSessionCwd(root, 'alias')).toBe(join(root, 'inner'));
  });

  it('refuses .. and symlinks that lead outside', () => {
    throwsWith(() => resolveSessionCwd(root, '..'), 'ERR_PROCESS_POLICY');
    throwsWith(() => resolveSessionCwd(root, 'escape'), 'ERR_PROCESS_POLICY');
    throwsWith(() => resolveSessionCwd(root, outside), 'ERR_PROCESS_POLICY');
    throwsWith(() => resolveSessionCwd(root, 'missing'), 'ERR_PROCESS_POLICY');
    throwsWith(() => resolveSessionCwd(root, 5 as never), 'ERR_INVALID_OPTION');
  });

  it('does not treat a sibling with a common prefix as inside', () => {
    const sibling = `${root}-sibling`;
    mkdirSync(sibling);
    throwsWith(() => resolveSessionCwd(root, sibling), 'ERR_PROCESS_POLICY');
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

describe('enforcePolicy', () => {
  const request: PolicyRequest = {
    action: 'start',
    owner: 'o',
    command: 'rm',
    args: ['-rf', '/'],
    shell: false,
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
    throwsWith(() => resolveTerminal({ columns: 121 }, limits), 'ERR_INVALID_OPTION');
    throwsWith(() => resolveTerminal({ rows: 0 }, limits), 'ERR_INVALID_OPTION');
    throwsWith(() => resolveTerminal({ term: 'x'.repeat(65) }, limits), 'ERR_INVALID_OPTION');
    throwsWith(() => resolveTerminal({ term: 'xterm bad' }, limits), 'ERR_INVALID_OPTION');
    const wide = resolveProcessSessionLimits({
      maxTerminalColumns: 500,
      maxTerminalRows: 200,
      maxTermBytes: 256,
    });
    expect(resolveTerminal({ columns: 500, rows: 200, term: 'x'.repeat(256) }, wide).columns).toBe(500);
  });
});
