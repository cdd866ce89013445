// The test sshd's remote user lives in a HOME of its own: the real ~/.bashrc is never sourced
// (a shell killed mid-`pyenv rehash` there once stalled every remote shell 60 s), and what a
// remote session leaves under that HOME, a daemonized tmux server included, ends with stop(),
// whether or not the HOME is still there.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assertNoLeakedProcesses } from '../src/leaks.js';
import { isAlive, processTable } from '../src/process-table.js';
import { requireTool } from '../src/require-tool.js';
import { startTestSshd, type TestSshd } from '../src/sshd.js';
import { waitFor } from '../src/wait-for.js';

const skip = requireTool(['sshd', 'tmux']);

function ssh(server: TestSshd, command: string): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('ssh', [...server.sshArgs(), command], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (data: Buffer) => {
      stdout += data.toString();
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout }));
  });
}

/** Starts a tmux server over ssh (it daemonizes out of sshd's tree) and returns its pid. */
async function remoteTmuxServer(server: TestSshd, socket: string): Promise<number> {
  expect((await ssh(server, `tmux -S '${socket}' new-session -d 'sleep 600'`)).code).toBe(0);
  const found = () => processTable().find((p) => p.command.startsWith('tmux') && p.command.includes(socket));
  await waitFor(() => found() !== undefined, 10_000, 'the remote tmux server');
  return found()!.pid;
}

describe.skipIf(skip !== undefined)('startTestSshd', () => {
  afterAll(async () => {
    await assertNoLeakedProcesses();
  });

  it("gives the remote user a HOME of its own: its .bashrc is the one sourced, not this user's", async () => {
    const server = await startTestSshd();
    try {
      expect(await ssh(server, 'echo "$HOME"; cd && pwd')).toEqual({
        code: 0,
        stdout: `${server.home}\n${server.home}\n`,
      });
      // bash run by sshd sources ~/.bashrc even for a command (Debian's build does).
      writeFileSync(join(server.home, '.bashrc'), 'export FROM_RC=test-home\n');
      expect((await ssh(server, 'echo "rc=$FROM_RC"')).stdout).toBe('rc=test-home\n');
    } finally {
      await server.stop();
    }
  });

  it('stop() ends a tmux server a remote session daemonized under that HOME, and removes it', async () => {
    const server = await startTestSshd();
    const socket = join(server.home, 'tmux.sock');
    try {
      const pid = await remoteTmuxServer(server, socket);
      await server.stop();
      await waitFor(() => !isAlive(pid), 10_000, 'the tmux server ended');
      expect(existsSync(server.home)).toBe(false);
      expect(spawnSync('tmux', ['-S', socket, 'has-session']).status).not.toBe(0);
    } finally {
      await server.stop();
    }
  });

  it('stop() ends that tmux server even when the HOME is already gone (the guard removes it when its cat dies)', async () => {
    const server = await startTestSshd();
    const socket = join(server.home, 'tmux.sock');
    try {
      const pid = await remoteTmuxServer(server, socket);
      // What the guard's own cleanup does when stop() kills its `cat` first: the socket is gone.
      rmSync(server.home, { recursive: true, force: true });
      await server.stop();
      await waitFor(() => !isAlive(pid), 10_000, 'the tmux server ended');
    } finally {
      await server.stop();
    }
  });
});
