// Short commands over one long-lived shell per connection (real sshd on loopback): exact
// output, status and input; one exec for many commands; a shell that dies or a command that
// overruns fails that command only, and the next one gets a new shell.
import { assertNoLeakedProcesses, rejectsWith, requireTool, type TestSshd } from '@procmux/test-utils';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SshConnection } from '../src/index.js';
import { ShellChannel } from '../src/shell-channel.js';
import { backendOptions, startTestSshd } from './helpers.js';

const skip = requireTool('sshd');

describe.skipIf(skip !== undefined)('the command shell of a connection', () => {
  let sshd: TestSshd;
  let connection: SshConnection;
  beforeAll(async () => {
    sshd = await startTestSshd();
    connection = await SshConnection.connect(backendOptions(sshd));
  });
  afterAll(async () => {
    connection?.close();
    await sshd?.stop();
    await assertNoLeakedProcesses();
  });

  it('runs many commands over one exec, in call order, with exact stdout, stderr and status', async () => {
    const exec = vi.spyOn(connection, 'exec');
    try {
      const runs = Array.from({ length: 12 }, (_, i) =>
        connection.runShell(`printf 'out-${i}'; printf 'err-${i}\\n' >&2; exit ${i}`),
      );
      const results = await Promise.all(runs);
      expect(results).toEqual(
        Array.from({ length: 12 }, (_, i) => ({ stdout: `out-${i}`, stderr: `err-${i}\n`, code: i })),
      );
      // Shell state does not leak from one command into the next (each runs in a subshell).
      expect(await connection.runShell('cd /; x=1; pwd')).toMatchObject({ stdout: '/\n', code: 0 });
      expect((await connection.runShell('[ -n "$x" ] && echo set || echo unset')).stdout).toBe('unset\n');
      expect(exec.mock.calls.length).toBe(1);
    } finally {
      exec.mockRestore();
    }
  });

  it('gives a command exactly its input (every byte value) and never the shell’s own stdin', async () => {
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const input = Buffer.concat([bytes, Buffer.from("'\\%s\n"), bytes]);
    const hex = await connection.runShell('od -An -v -tx1 | tr -d " \\n"', input);
    expect(hex).toMatchObject({ code: 0, stdout: input.toString('hex') });
    // Without input a reader sees end of file at once; the commands after it still run.
    expect(await connection.runShell('cat; echo done')).toMatchObject({ stdout: 'done\n', code: 0 });
    // A syntax error fails that command only.
    const broken = await connection.runShell('if then fi');
    expect(broken.code).not.toBe(0);
    expect(broken.stderr).toMatch(/syntax error/i);
    expect(await connection.runShell('echo after')).toMatchObject({ stdout: 'after\n', code: 0 });
  });

  it('a shell that dies fails the command in flight; the next command runs on a new shell', async () => {
    const exec = vi.spyOn(connection, 'exec');
    try {
      // $$ in the subshell is the shell itself.
      await rejectsWith(connection.runShell('kill -KILL $$; sleep 5'), 'ERR_PROCESS_PTY_BACKEND');
      expect(await connection.runShell('echo again')).toMatchObject({ stdout: 'again\n', code: 0 });
      expect(exec.mock.calls.length).toBe(1);
    } finally {
      exec.mockRestore();
    }
  });

  it('a command past its time fails with a message naming the bound; the next one runs', async () => {
    const shell = new ShellChannel({
      open: (command) => connection.exec(command),
      lost: () => undefined,
      name: 'loopback',
      timeoutMs: 2_000,
      maxOutputChars: 1000,
    });
    try {
      // Started first, so the bound counts from a running shell (the login shell's rc is slow here).
      expect(await shell.run('echo up')).toMatchObject({ stdout: 'up\n', code: 0 });
      const error = await rejectsWith(shell.run('sleep 4'), 'ERR_PROCESS_PTY_BACKEND');
      expect(error.message).toMatch(/did not finish within 2000 ms/);
      expect(await shell.run('echo next')).toMatchObject({ stdout: 'next\n', code: 0 });
      // Output past the bound is dropped, and the command then fails saying so.
      const long = await shell.run('i=0; while [ $i -lt 300 ]; do echo 0123456789; i=$((i+1)); done');
      expect(long.stdout).toHaveLength(1000);
      expect(long.code).not.toBe(0);
      expect(long.stderr).toMatch(/output past 1000 characters was dropped/);
      expect(await shell.run('echo whole')).toMatchObject({ stdout: 'whole\n', code: 0 });
    } finally {
      shell.close();
    }
  });

  it('a login shell that never gets to sh fails the command waiting for it', async () => {
    const shell = new ShellChannel({
      // The exec request's command line runs, not the shell asked for: as an rc that hangs.
      open: () => connection.exec('sleep 3'),
      lost: () => undefined,
      name: 'loopback',
      startTimeoutMs: 300,
    });
    try {
      const error = await rejectsWith(shell.run('echo never'), 'ERR_PROCESS_PTY_BACKEND');
      expect(error.message).toMatch(/did not start within 300 ms/);
    } finally {
      shell.close();
    }
  });

  it('a closed connection refuses at once', async () => {
    const other = await SshConnection.connect(backendOptions(sshd));
    other.close();
    await rejectsWith(
      Promise.resolve().then(() => other.runShell('true')),
      'ERR_PROCESS_STATE',
    );
  });
});
