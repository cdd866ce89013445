// The OS sandbox through the host API: which starts run in it, what metadata and events say,
// and where it cannot go (fails closed, never runs unsandboxed).
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ProcessEvent } from '@procmux/core-types';
import {
  assertNoLeakedProcesses,
  assertNoSandboxDirs,
  isAlive,
  makeWorkspace,
  privateTmpdir,
  sandboxDirs,
  trackPid,
  waitFor,
} from '@procmux/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { createProcessSessions, type ProcessPtyBackend } from '../src/index.js';

const SANDBOX_HOST = fileURLToPath(new URL('./fixtures/sandbox-host.mjs', import.meta.url));
// Every sandbox of this file makes its private dir here: none may be left at the end.
const tmp = privateTmpdir();

afterAll(async () => {
  await assertNoLeakedProcesses();
  await assertNoSandboxDirs(tmp);
  rmSync(tmp, { recursive: true, force: true });
});

describe.skipIf(process.platform !== 'linux')('sandboxPolicy and sandbox', () => {
  it('runs a registry sandboxPolicy start in its own pid namespace; metadata and events tell the refusals', async () => {
    const events: ProcessEvent[] = [];
    const sessions = createProcessSessions({
      cwd: makeWorkspace(),
      sandboxPolicy: true,
      onEvent: (e) => events.push(e),
    });
    try {
      const s = await sessions.start({ command: 'echo $$; echo x > /etc/procmux-nope', shell: true });
      expect(await s.wait({ timeoutMs: 10_000 })).toMatchObject({ state: 'exited' });
      expect(Number((await s.poll()).stdout.trim())).toBeLessThan(10);
      const sandbox = s.metadata().sandbox!;
      expect(sandbox.policy).toMatchObject({
        write: [s.cwd],
        network: 'allow-list-proxy',
        pidNamespace: true,
      });
      expect(sandbox.violations.map((v) => [v.kind, v.target])).toEqual([['write', '/etc/procmux-nope']]);
      expect(sandbox.violationCount).toBe(1);
      const told = events.filter((e) => e.type === 'sandbox_violation');
      expect(told.map((e) => [e.sessionId, e.violation?.target])).toEqual([[s.id, '/etc/procmux-nope']]);
    } finally {
      await sessions.dispose();
    }
  });

  it("removes a session's private dir once its exit is reported, and by dispose() at the latest", async () => {
    const sessions = createProcessSessions({ cwd: makeWorkspace(), sandboxPolicy: true });
    const first = await sessions.start({ command: 'true', shell: true });
    await first.wait({ timeoutMs: 10_000 });
    await waitFor(() => sandboxDirs(tmp).length === 0, 10_000, "the ended session's private dir to go");
    // A host disposed in the very turn its session's exit is reported leaves none either.
    const second = await sessions.start({ command: 'true', shell: true });
    expect(sandboxDirs(tmp)).toHaveLength(1);
    await second.wait({ timeoutMs: 10_000 }).then(() => sessions.dispose());
    expect(sandboxDirs(tmp)).toEqual([]);
  });

  it("removes each session's private dir when the host is SIGKILLed (the watchdog, after the tree kill)", async () => {
    const host = spawn(process.execPath, [SANDBOX_HOST, makeWorkspace()], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    trackPid(host.pid);
    let out = '';
    host.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    await waitFor(() => out.includes('\n'), 30_000, 'the host to start its sessions');
    const pids = out.trim().split(' ').slice(1).map(Number);
    expect(pids).toHaveLength(2);
    expect(sandboxDirs(tmp)).toHaveLength(2);
    const gone = new Promise((resolve) => host.once('exit', resolve));
    host.kill('SIGKILL');
    await gone;
    await waitFor(() => sandboxDirs(tmp).length === 0, 15_000, 'the private dirs to go');
    expect(pids.filter(isAlive)).toEqual([]);
  });

  it('a start with sandbox: false runs as before, and without any sandbox nothing is said', async () => {
    const sessions = createProcessSessions({ cwd: makeWorkspace(), sandboxPolicy: true });
    const plain = createProcessSessions({ cwd: makeWorkspace() });
    try {
      const s = await sessions.start({ command: 'echo $$', shell: true, sandbox: false });
      await s.wait({ timeoutMs: 10_000 });
      expect(Number((await s.poll()).stdout.trim())).toBeGreaterThan(10);
      expect(s.metadata().sandbox).toBeUndefined();
      const p = await plain.start({ command: 'true' });
      await p.wait({ timeoutMs: 10_000 });
      expect(p.metadata().sandbox).toBeUndefined();
    } finally {
      await sessions.dispose();
      await plain.dispose();
    }
  });

  it('refuses a sandboxed start on a host PTY backend not declaring capabilities.sandbox instead of running it unsandboxed', async () => {
    let started = 0;
    const ptyBackend: ProcessPtyBackend = {
      startPty: () => {
        started += 1;
        throw new Error('must not be reached');
      },
    } as unknown as ProcessPtyBackend;
    const sessions = createProcessSessions({ cwd: makeWorkspace(), ptyBackend });
    try {
      await expect(sessions.start({ command: 'true', pty: true, sandbox: true })).rejects.toMatchObject({
        code: 'ERR_PROCESS_UNSUPPORTED',
        message: expect.stringContaining(
          'cannot run on a host PTY backend that does not declare capabilities.sandbox',
        ),
      });
      expect(started).toBe(0);
    } finally {
      await sessions.dispose();
    }
  });

  it('refuses a malformed sandbox option with what is allowed', async () => {
    const sessions = createProcessSessions({ cwd: makeWorkspace() });
    try {
      await expect(sessions.start({ command: 'true', sandbox: 'yes' as never })).rejects.toMatchObject({
        code: 'ERR_INVALID_OPTION',
        message: 'sandbox must be true, false or a policy { write?, allowDomains?, denyRead? } (got "yes")',
      });
      await expect(
        sessions.start({ command: 'true', sandbox: { allowDomains: ['http://x'] } }),
      ).rejects.toMatchObject({ code: 'ERR_INVALID_OPTION' });
    } finally {
      await sessions.dispose();
    }
  });
});
