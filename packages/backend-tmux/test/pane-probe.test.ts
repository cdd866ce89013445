// The standby's batched pane lookup tells "the session is not there" from "the lookup failed":
// only tmux's own "no server" is read as no panes; a shell that did not answer or any other
// tmux error rejects with ERR_RECOVERY_UNREACHABLE, so recover() tries again later instead of
// removing a live pane's cgroup and writing its record unknown.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isProcmuxError } from '@procmux/core-types';
import { afterAll, describe, expect, it } from 'vitest';
import { paneProbe } from '../src/remote/pane-probe.js';
import { locateTmux, runPastExit, type TmuxResult, TmuxServer } from '../src/tmux-cli.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const answering = (result: TmuxResult | Error) => {
  let runs = 0;
  return {
    runs: () => runs,
    run: async () => {
      runs += 1;
      if (result instanceof Error) throw result;
      return result;
    },
  };
};

describe.skipIf(process.platform === 'win32')('paneProbe', () => {
  it('reads a real tmux with no server on the socket as no panes: the sessions are gone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'procmux-probe-'));
    dirs.push(dir);
    const server = new TmuxServer(locateTmux(), join(dir, 'no-server.sock'), {});
    const probe = paneProbe(server);
    expect(await Promise.all([probe('a'), probe('b')])).toEqual([undefined, undefined]);
  });

  it('rejects every lookup of a batch with ERR_RECOVERY_UNREACHABLE when the shell did not answer', async () => {
    const server = answering(new Error('a command on u@h:22 did not finish within 60000 ms'));
    const probe = paneProbe(server, 'u@h:22');
    const results = await Promise.allSettled([probe('a'), probe('b')]);
    expect(server.runs()).toBe(1);
    for (const r of results) {
      expect(r.status).toBe('rejected');
      const error = (r as PromiseRejectedResult).reason;
      expect(isProcmuxError(error, 'ERR_RECOVERY_UNREACHABLE')).toBe(true);
      expect(error.message).toBe(
        'could not list the tmux panes on u@h:22 (a command on u@h:22 did not finish within 60000 ms); try again later',
      );
    }
  });

  it('rejects on any other tmux failure, and lists the panes of a server that answered', async () => {
    const failing = paneProbe(
      answering({ code: 1, stdout: '', stderr: 'protocol version mismatch (client 8, server 7)' }),
    );
    await expect(failing('a')).rejects.toMatchObject({ code: 'ERR_RECOVERY_UNREACHABLE' });
    const listed = paneProbe(answering({ code: 0, stdout: 'a m-1 4242 0\nb m-2 4343 1\n', stderr: '' }));
    expect(await Promise.all([listed('a'), listed('b'), listed('c')])).toEqual([
      { marker: 'm-1', pid: 4242, dead: false },
      { marker: 'm-2', pid: 4343, dead: true },
      undefined,
    ]);
  });
});

describe('TmuxServer.list', () => {
  const listing = (result: TmuxResult | Error) =>
    new TmuxServer({ path: 'tmux', version: 'tmux 3.3a' }, '/nowhere/tmux.sock', {}, async () => {
      if (result instanceof Error) throw result;
      return result;
    });

  it("reads tmux's own 'no server', a server that exited under the listing, and one with no session as nothing to list", async () => {
    const none = { stdout: '', code: 1 };
    for (const stderr of [
      'no server running on /nowhere/tmux.sock',
      'server exited unexpectedly',
      'no current target',
    ]) {
      expect(await listing({ ...none, stderr }).list(['list-sessions'])).toBe('');
    }
    expect(await listing({ stdout: 'a\nb\n', stderr: '', code: 0 }).list(['list-sessions'])).toBe('a\nb\n');
  });

  // Found by the stress run: a test's cleanup listed the panes as its last session ended, and
  // `list-panes -a` on a server with no session fails with "no current target".
  it.skipIf(process.platform === 'win32')(
    'reads a real server whose last session ended, before it exits, as nothing to list',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'procmux-probe-'));
      dirs.push(dir);
      const server = new TmuxServer(locateTmux(), join(dir, 'empty.sock'), {});
      await server.must(['new-session', '-d', '-s', 'only', 'sleep 30']);
      // Kept running with no session, as it is for a moment once its last session ends.
      await server.must(['set-option', '-g', 'exit-empty', 'off']);
      await server.must(['kill-session', '-t', 'only']);
      try {
        const panes = await server.run(['list-panes', '-a']);
        expect(panes).toMatchObject({ code: 1, stderr: expect.stringContaining('no current target') });
        expect(await server.list(['list-panes', '-a', '-F', '#{pane_id}'])).toBe('');
        expect(await paneProbe(server)('only')).toBeUndefined();
      } finally {
        await server.run(['kill-server']);
      }
    },
  );

  it('throws ERR_PROCESS_PTY_BACKEND, never "none", when tmux could not be asked', async () => {
    const other = listing({ stdout: '', stderr: 'protocol version mismatch (client 8, server 7)', code: 1 });
    await expect(other.list(['list-panes', '-a'])).rejects.toMatchObject({
      code: 'ERR_PROCESS_PTY_BACKEND',
      message: 'tmux list-panes failed: protocol version mismatch (client 8, server 7)',
    });
    const unrun = listing(new Error('the shell did not answer'));
    await expect(unrun.list(['list-sessions'])).rejects.toMatchObject({
      code: 'ERR_PROCESS_PTY_BACKEND',
      message: 'tmux list-sessions could not be run: the shell did not answer',
    });
  });
});

describe('runPastExit', () => {
  it('asks again while the server is exiting under the command, and returns what tmux then says', async () => {
    const answers: TmuxResult[] = [
      { code: 1, stdout: '', stderr: 'server exited unexpectedly' },
      { code: 1, stdout: '', stderr: 'server exited unexpectedly' },
      { code: 1, stdout: '', stderr: 'no server running on /nowhere/tmux.sock' },
    ];
    let calls = 0;
    const result = await runPastExit(async () => answers[calls++]!, ['list-panes', '-a']);
    expect(calls).toBe(3);
    expect(result.stderr).toBe('no server running on /nowhere/tmux.sock');
    // Any other answer is returned at once.
    let once = 0;
    await runPastExit(async () => {
      once += 1;
      return { code: 1, stdout: '', stderr: 'lost server' };
    }, ['list-panes']);
    expect(once).toBe(1);
  });
});
