import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertNoLeakedProcesses, requireTool, type TestSshd } from '@procmux/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkFingerprint,
  checkKnownHosts,
  createSshBackend,
  fingerprintOf,
  knownHostsName,
  resolveSshOptions,
  type SshBackendOptions,
} from '../src/index.js';
import { backendOptions, startTestSshd } from './helpers.js';

const KEY = Buffer.from('AAAAC3NzaC1lZDI1NTE5AAAAIOb6ZhPq4bM2g3bRl0e4cL8xGfY3ZqOzUu2oVQx3mX0k', 'base64');
const OTHER = Buffer.from('AAAAC3NzaC1lZDI1NTE5AAAAIE2xJmWmS3gpLl4tAkqB7mVnE1vN6W0jKpq1e3nq9XyZ', 'base64');

describe('host key checks (pure)', () => {
  it('matches plain, bracketed-port and comma-listed known_hosts names', () => {
    const line = (host: string) => `${host} ssh-ed25519 ${KEY.toString('base64')}\n`;
    expect(knownHostsName('h', 22)).toBe('h');
    expect(knownHostsName('h', 2222)).toBe('[h]:2222');
    expect(checkKnownHosts(line('h'), 'h', 22, KEY)).toEqual({ ok: true });
    expect(checkKnownHosts(line('x,[h]:2222'), 'h', 2222, KEY)).toEqual({ ok: true });
    // Port 22's entry does not vouch for another port.
    expect(checkKnownHosts(line('h'), 'h', 2222, KEY).ok).toBe(false);
  });

  it('refuses an unknown host and a changed key, saying which', () => {
    const text = `# comment\nh ssh-ed25519 ${KEY.toString('base64')}\n`;
    const unknown = checkKnownHosts(text, 'other', 22, KEY);
    expect(unknown).toMatchObject({ ok: false, reason: expect.stringMatching(/not in known_hosts/) });
    const changed = checkKnownHosts(text, 'h', 22, OTHER);
    expect(changed).toMatchObject({ ok: false, reason: expect.stringMatching(/does not match/) });
    expect(checkKnownHosts('', 'h', 22, KEY).ok).toBe(false);
  });

  it('understands hashed names (ssh-keygen -H) and @revoked', () => {
    const dir = process.env.TMPDIR ?? '/tmp';
    const file = join(dir, `procmux-kh-${process.pid}`);
    writeFileSync(file, `[h]:2200 ssh-ed25519 ${KEY.toString('base64')}\n`);
    execFileSync('ssh-keygen', ['-q', '-H', '-f', file], { stdio: 'ignore' });
    const hashed = readFileSync(file, 'utf8');
    rmSync(file);
    rmSync(`${file}.old`, { force: true });
    expect(hashed).toMatch(/^\|1\|/);
    expect(checkKnownHosts(hashed, 'h', 2200, KEY)).toEqual({ ok: true });
    expect(checkKnownHosts(hashed, 'h', 2201, KEY).ok).toBe(false);
    const revoked = `@revoked h ssh-ed25519 ${KEY.toString('base64')}\nh ssh-ed25519 ${KEY.toString('base64')}\n`;
    expect(checkKnownHosts(revoked, 'h', 22, KEY)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/revoked/),
    });
    // A wildcard is not understood, so it never lets a key in.
    expect(checkKnownHosts(`* ssh-ed25519 ${KEY.toString('base64')}\n`, 'h', 22, KEY).ok).toBe(false);
  });

  it('compares pinned SHA256 fingerprints', () => {
    const pinned = fingerprintOf(KEY);
    expect(pinned).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    expect(checkFingerprint(pinned, 'h', 22, KEY)).toEqual({ ok: true });
    expect(checkFingerprint(pinned, 'h', 22, OTHER).ok).toBe(false);
  });

  it('validates options: a host key source, a key source, no password path', () => {
    const base = { host: 'h', username: 'u', privateKey: 'k', agent: false as const };
    const refusal = (options: unknown): unknown => {
      try {
        resolveSshOptions(options as SshBackendOptions);
      } catch (error) {
        return error;
      }
      throw new Error('accepted');
    };
    const fp = fingerprintOf(KEY);
    expect(refusal(base)).toMatchObject({
      code: 'ERR_INVALID_OPTION',
      message: expect.stringMatching(
        /^knownHostsFile or hostFingerprint must be given, exactly one .*always verified/,
      ),
      details: {
        option: 'knownHostsFile or hostFingerprint',
        missing: ['knownHostsFile', 'hostFingerprint'],
      },
    });
    expect(refusal({ ...base, hostFingerprint: fp, knownHostsFile: '/etc/hostname' })).toMatchObject({
      code: 'ERR_INVALID_OPTION',
      details: { option: 'knownHostsFile or hostFingerprint' },
    });
    expect(refusal({ ...base, hostFingerprint: 'md5:aa' })).toMatchObject({
      code: 'ERR_INVALID_OPTION',
      message:
        'hostFingerprint must be SHA256:<43 base64 characters>, as ssh-keygen -l prints it (got "md5:aa")',
      details: { option: 'hostFingerprint' },
    });
    expect(refusal({ host: 'h', username: 'u', agent: false, hostFingerprint: fp })).toMatchObject({
      code: 'ERR_INVALID_OPTION',
      message: expect.stringMatching(/no key to offer/),
      details: { missing: ['identityFile', 'privateKey', 'agent'] },
    });
    expect(refusal({ ...base, hostFingerprint: fp, port: 0 })).toMatchObject({
      code: 'ERR_INVALID_OPTION',
      message: 'port must be an integer from 1 to 65535 (got 0)',
      details: { option: 'port', min: 1, max: 65_535 },
    });
    expect(refusal({ ...base, hostFingerprint: fp, killGraceMs: 60_001 })).toMatchObject({
      details: { option: 'killGraceMs', min: 0, max: 60_000 },
    });
    expect(refusal({ ...base, hostFingerprint: fp, keepaliveIntervalMs: 1.5 })).toMatchObject({
      message: 'keepaliveIntervalMs must be an integer from 0 to 600000 (got 1.5)',
    });
    expect(refusal({ ...base, knownHostsFile: '/nonexistent/known_hosts' })).toMatchObject({
      code: 'ERR_INVALID_OPTION',
      message: 'knownHostsFile must be a readable file (got "/nonexistent/known_hosts")',
      details: { option: 'knownHostsFile' },
    });
    expect(refusal({ ...base, host: ' ', hostFingerprint: fp })).toMatchObject({
      details: { option: 'host' },
    });
    expect(refusal({ ...base, hostFingerprint: fp, agent: 3 })).toMatchObject({
      message: "agent must be the agent's socket path, or false for no agent (got 3)",
    });
    // A typo never leaves a default in force; two keys are not silently one.
    expect(refusal({ ...base, hostFingerprint: fp, keepAliveIntervalMs: 100 })).toMatchObject({
      details: { option: 'options.keepAliveIntervalMs' },
    });
    expect(refusal({ ...base, hostFingerprint: fp, identityFile: '/etc/hostname' })).toMatchObject({
      details: { option: 'identityFile or privateKey' },
    });
    // The key and the passphrase are never echoed.
    const secret = refusal({ ...base, privateKey: '', passphrase: 'hunter2', hostFingerprint: fp }) as Error;
    expect(secret).toMatchObject({ details: { option: 'privateKey' } });
    const pass = refusal({ ...base, passphrase: '', hostFingerprint: fp }) as Error;
    expect(pass).toMatchObject({ details: { option: 'passphrase' } });
    expect(pass.message).not.toContain('got');
    expect(refusal(null)).toMatchObject({ code: 'ERR_INVALID_OPTION', details: { option: 'options' } });
  });
});

const skip = requireTool('sshd');

describe.skipIf(skip !== undefined)('host keys and client keys against a real sshd', () => {
  let sshd: TestSshd;
  beforeAll(async () => {
    sshd = await startTestSshd();
  });
  afterAll(async () => {
    await sshd?.stop();
    await assertNoLeakedProcesses();
  });

  it('connects with the right known_hosts entry or the pinned fingerprint', async () => {
    const a = await createSshBackend(backendOptions(sshd));
    a.close();
    const { knownHostsFile: _, ...rest } = backendOptions(sshd);
    const b = await createSshBackend({ ...rest, hostFingerprint: sshd.fingerprint });
    expect(b.connection.state).toBe('running');
    b.close();
  });

  it('refuses an unknown host key: never accepted silently', async () => {
    const empty = join(sshd.dir, 'empty_known_hosts');
    writeFileSync(empty, '');
    await expect(createSshBackend(backendOptions(sshd, { knownHostsFile: empty }))).rejects.toMatchObject({
      code: 'ERR_PROCESS_POLICY',
      message: expect.stringMatching(/is not in known_hosts \(its key is SHA256:/),
    });
    // The right name with another key: a changed host key.
    const changed = join(sshd.dir, 'changed_known_hosts');
    writeFileSync(
      changed,
      `[127.0.0.1]:${sshd.port} ${readFileSync(`${sshd.wrongIdentityFile}.pub`, 'utf8')}`,
    );
    await expect(createSshBackend(backendOptions(sshd, { knownHostsFile: changed }))).rejects.toMatchObject({
      code: 'ERR_PROCESS_POLICY',
      message: expect.stringMatching(/does not match known_hosts/),
    });
    const { knownHostsFile: _, ...rest } = backendOptions(sshd);
    await expect(
      createSshBackend({ ...rest, hostFingerprint: `SHA256:${'A'.repeat(43)}` }),
    ).rejects.toMatchObject({ code: 'ERR_PROCESS_POLICY', message: expect.stringMatching(/not the pinned/) });
  });

  it('refuses a client key the server does not accept, without trying a password', async () => {
    await expect(
      createSshBackend(backendOptions(sshd, { identityFile: sshd.wrongIdentityFile })),
    ).rejects.toMatchObject({
      code: 'ERR_PROCESS_SPAWN',
      message: expect.stringMatching(/accepted none of the offered keys .*passwords are never tried/),
    });
  });

  it('authenticates through an agent (SSH_AUTH_SOCK) when no key file is given', async () => {
    const out = execFileSync('ssh-agent', ['-s'], { encoding: 'utf8' });
    const sock = /SSH_AUTH_SOCK=([^;]+);/.exec(out)![1]!;
    const agentPid = Number(/SSH_AGENT_PID=(\d+);/.exec(out)![1]);
    try {
      execFileSync('ssh-add', ['-q', sshd.identityFile], { env: { ...process.env, SSH_AUTH_SOCK: sock } });
      const { identityFile: _, ...rest } = backendOptions(sshd);
      const backend = await createSshBackend({ ...rest, agent: sock });
      expect(backend.connection.state).toBe('running');
      backend.close();
    } finally {
      process.kill(agentPid, 'SIGTERM');
    }
  });
});
