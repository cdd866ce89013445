import { readFileSync } from 'node:fs';
import { assertNoLeakedProcesses, requireTool, type TestSshd, waitFor } from '@procmux/test-utils';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  closeWorld,
  openWorld,
  remoteSurvivors,
  type SshWorld,
  settleSurvivors,
  startTestSshd,
} from './helpers.js';

const skip = requireTool('sshd');

function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

describe.skipIf(skip !== undefined || process.platform !== 'linux')('a lost SSH connection', () => {
  let sshd: TestSshd;
  let world: SshWorld | undefined;
  beforeAll(async () => {
    sshd = await startTestSshd();
  });
  afterEach(async () => {
    await closeWorld(world);
    world = undefined;
    expect(await settleSurvivors()).toEqual([]);
  });
  afterAll(async () => {
    await sshd?.stop();
    await assertNoLeakedProcesses();
  });

  it('killing the sshd process serving it: sessions unknown within the bound, 0 remote survivors', async () => {
    world = await openWorld(sshd);
    const bound = world.backend.lossBoundMs!;
    expect(bound).toBe(1500);
    const pipe = await world.sessions.start({
      shell: true,
      command: 'setsid sleep 303 & sleep 304; echo never',
    });
    const term = await world.sessions.start({
      command: 'sh',
      args: ['-c', 'trap "" HUP; sleep 305'],
      pty: true,
    });
    await waitFor(() => remoteSurvivors().length >= 4, 10_000, 'the remote processes to be up');
    const served = parentOf(pipe.pid!);
    expect(readFileSync(`/proc/${served}/cmdline`, 'utf8')).toMatch(/^sshd/);
    const killedAt = Date.now();
    process.kill(served, 'SIGKILL');
    await waitFor(
      () => pipe.metadata().state === 'unknown' && term.metadata().state === 'unknown',
      bound + 5_000,
      'both sessions to become unknown',
    );
    // Noticed from the connection closing, not by waiting out keepalives: so within the bound by
    // construction. The time is a figure to read, never an assertion (a loaded machine stretches it).
    // The socket closing or a write to it failing (EPIPE, ECONNRESET: whichever the kernel
    // tells first under load), never the keepalive's timeout.
    expect(world.backend.connection.lostCause?.message).toMatch(
      /^(the SSH connection closed|(write|read) (EPIPE|ECONNRESET))$/,
    );
    console.info(
      `[procmux] connection loss noticed after ${Date.now() - killedAt} ms (documented bound ${bound} ms)`,
    );
    for (const s of [pipe, term]) {
      expect(s.metadata()).toMatchObject({ state: 'unknown', exitCode: null, signal: null });
      // wait() says what is known, once: the outcome is not guessed.
      const lost = await s.wait().then(
        () => undefined,
        (error: Error) => error,
      );
      expect(lost).toMatchObject({ code: 'ERR_PROCESS_PTY_BACKEND' });
      expect(lost?.message).toMatch(
        /^the process backend lost this session: the SSH connection ended before the remote process's exit status arrived; its outcome is unknown \(.+\)$/,
      );
    }
    // The wrappers' monitors see their sshd gone and end their trees: nothing marked survives.
    const survivors = await settleSurvivors(10_000);
    console.info(
      `[procmux] remote survivors ${Date.now() - killedAt} ms after the kill: ${survivors.length}`,
    );
    expect(survivors).toEqual([]);
    // Nothing starts on a lost connection, and it says why.
    await expect(world.sessions.start({ command: 'true' })).rejects.toMatchObject({
      code: 'ERR_PROCESS_UNSUPPORTED',
    });
  });

  it('a connection gone silent (sshd stopped, no FIN): keepalive notices within the bound', async () => {
    world = await openWorld(sshd);
    const bound = world.backend.lossBoundMs!;
    const s = await world.sessions.start({ shell: true, command: 'sleep 306' });
    await waitFor(() => remoteSurvivors().length >= 1, 10_000, 'the remote sleep to be up');
    const served = parentOf(s.pid!);
    const stoppedAt = Date.now();
    process.kill(served, 'SIGSTOP');
    try {
      await waitFor(() => s.metadata().state === 'unknown', bound + 5_000, 'the session to become unknown');
      // Noticed by the keepalives the bound is made of (interval × (count + 1), lossBoundMs),
      // as ssh2 reports them; the time is a figure to read, never an assertion.
      expect(world!.backend.connection.lostCause?.message).toBe('Keepalive timeout');
      console.info(
        `[procmux] silent connection noticed after ${Date.now() - stoppedAt} ms (documented bound ${bound} ms)`,
      );
      expect(s.metadata()).toMatchObject({ state: 'unknown', exitCode: null, signal: null });
    } finally {
      process.kill(served, 'SIGKILL');
    }
    expect(await settleSurvivors(10_000)).toEqual([]);
  });
});
