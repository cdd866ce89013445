// An OS-sandboxed session on tmux (issue 29, item 4): the pane runs the sandbox's launcher, so
// the program inside is confined as a native one is, and the tmux guarantees still hold —
// exact replay after the host was SIGKILLed, kill, the 'host' lifetime's watchdog — with the
// session's private /tmp/procmux-sandbox-* directory gone once the program is.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createProcessSessions } from '@procmux/sessions';
import { assertNoSandboxDirs, makeWorkspace, privateTmpdir, waitFor } from '@procmux/test-utils';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createTmuxBackend, type TmuxBackend } from '../src/index.js';
import { disposeHosts, newHost } from './durable-hosts.js';
import { alive, markedBy, paneText, sigkill, startHost, stateDir, teardown } from './helpers.js';

const backends: TmuxBackend[] = [];
// Every sandbox of this file (and of the hosts it starts) makes its private dir here.
const tmp = privateTmpdir();

afterEach(async () => {
  for (const tmux of backends.splice(0)) await tmux.killServer();
  await disposeHosts();
  await teardown();
});

afterAll(async () => {
  await assertNoSandboxDirs(tmp);
  rmSync(tmp, { recursive: true, force: true });
});

/**
 * The sandbox's private directory, from the pane's command line once it has exec'd bwrap (its
 * private TMPDIR is bound there); an unsandboxed pane never gets there.
 */
async function privateDir(panePid: number): Promise<string> {
  const bind = await waitFor(
    () =>
      readFileSync(`/proc/${panePid}/cmdline`, 'utf8')
        .split('\0')
        .find((a) => /\/procmux-sandbox-[^/]+\/tmp$/.test(a)) ?? '',
    10_000,
    "the pane's program to run in bwrap",
  );
  return bind.slice(0, -'/tmp'.length);
}

const lines = (text: string) => text.split(/\r?\n/).filter((l) => l.startsWith('line-'));

describe.skipIf(process.platform !== 'linux')('an OS-sandboxed session on tmux', () => {
  it('runs the pane program sandboxed: own pid namespace, its terminal, a refused write told; kill leaves nothing', async () => {
    const tmux = createTmuxBackend({ dir: join(stateDir(), 'tmux') });
    backends.push(tmux);
    const workspace = makeWorkspace();
    const outside = join(stateDir(), 'outside.txt');
    const sessions = createProcessSessions({ cwd: workspace, ptyBackend: tmux, sandboxPolicy: true });
    try {
      const s = await sessions.start({
        command: 'bash',
        args: ['--norc', '-i'],
        pty: true,
        lifetime: 'detached',
      });
      const dir = await privateDir(s.pid!);
      expect(existsSync(dir)).toBe(true);
      await s.input(`echo "pid=$$"; tty; echo x > ${outside}; echo kept > in-ws.txt; echo "do""ne"\r`);
      await expect.poll(async () => (await s.log({})).text, { timeout: 15_000 }).toContain('done');
      const text = (await s.log({})).text;
      expect(Number(/pid=(\d+)/.exec(text)?.[1])).toBeLessThan(10);
      expect(text).toMatch(/\/dev\/pts\/\d+/);
      expect(existsSync(outside)).toBe(false);
      expect(readFileSync(join(workspace, 'in-ws.txt'), 'utf8')).toBe('kept\n');
      expect(s.metadata().sandbox?.violations.map((v) => [v.kind, v.target])).toEqual([['write', outside]]);
      expect(await s.kill()).toMatchObject({ state: 'killed' });
      await expect.poll(() => existsSync(dir), { timeout: 10_000 }).toBe(false);
    } finally {
      await sessions.dispose();
    }
  });

  it("signals the pane's program inside the sandbox, not bwrap: its trap runs, its own exit code", async () => {
    const tmux = createTmuxBackend({ dir: join(stateDir(), 'tmux') });
    backends.push(tmux);
    const sessions = createProcessSessions({
      cwd: makeWorkspace(),
      ptyBackend: tmux,
      sandboxPolicy: true,
    });
    try {
      const s = await sessions.start({
        command: `trap 'echo term-caught; exit 9' TERM; echo ready; while :; do sleep 0.1; done`,
        shell: true,
        pty: true,
        lifetime: 'detached',
      });
      await expect.poll(async () => (await s.log({})).text, { timeout: 15_000 }).toContain('ready');
      await s.signal('SIGTERM');
      expect(await s.wait({ timeoutMs: 15_000 })).toMatchObject({
        state: 'exited',
        exitCode: 9,
        signal: null,
      });
      expect((await s.log({})).text).toContain('term-caught');
    } finally {
      await sessions.dispose();
    }
  });

  it('a persisted sandboxed session outlives a SIGKILLed host: every line once, input, real exit code, its dir removed at its end', async () => {
    const dir = stateDir();
    const printer =
      'echo "pid=$$"; i=1; while [ $i -le 30 ]; do echo "line-$i"; i=$((i+1)); sleep 0.05; done; read x; echo "got-$x"; exit 7';
    const { child, first } = await startHost<{ id: string; pid: number }>('host.mjs', [
      dir,
      printer,
      'detached',
      'sandbox',
    ]);
    const box = await privateDir(first.pid);
    await sigkill(child);
    expect(alive(first.pid)).toBe(true);
    expect(existsSync(box)).toBe(true);

    const { sessions } = newHost(dir);
    const report = await sessions.recover();
    expect(report.outcomes).toMatchObject([{ id: first.id, outcome: 'reattached' }]);
    const session = sessions.get(first.id);
    await expect.poll(async () => lines((await session.log({})).text).length, { timeout: 15_000 }).toBe(30);
    await session.input('hello\r');
    expect(await session.wait({ timeoutMs: 15_000 })).toMatchObject({ state: 'exited', exitCode: 7 });
    const text = (await session.log({})).text;
    expect(lines(text)).toEqual(Array.from({ length: 30 }, (_, i) => `line-${i + 1}`));
    expect(Number(/pid=(\d+)/.exec(text)?.[1])).toBeLessThan(10);
    expect(text).toContain('got-hello');
    await expect.poll(() => existsSync(box), { timeout: 10_000 }).toBe(false);
  });

  it('a recovered sandboxed session gets its sandbox back: refusals after the recovery are told, signals reach the program inside', async () => {
    const dir = stateDir();
    const outside = join(tmp, 'outside-after-recovery');
    const script = `trap 'echo term-caught; exit 9' TERM; echo "pid=$$"; read x; echo owned > ${outside}; echo "wrote-$x"; while :; do sleep 0.1; done`;
    const { child, first } = await startHost<{ id: string; pid: number }>('host.mjs', [
      dir,
      script,
      'detached',
      'sandbox',
    ]);
    const box = await privateDir(first.pid);
    await sigkill(child);

    const { sessions } = newHost(dir);
    const report = await sessions.recover();
    expect(report.outcomes).toMatchObject([{ id: first.id, outcome: 'reattached' }]);
    const session = sessions.get(first.id);
    await expect.poll(async () => (await session.log({})).text, { timeout: 15_000 }).toContain('pid=');
    await session.input('go\r');
    await expect.poll(async () => (await session.log({})).text, { timeout: 15_000 }).toContain('wrote-go');
    expect(existsSync(outside)).toBe(false);
    // Told by this host, from the policy and private dir of the record.
    expect(session.metadata().sandbox?.violations.map((v) => [v.kind, v.target])).toEqual([
      ['write', outside],
    ]);
    expect(session.metadata().sandbox?.policy.write[0]).toBe(session.metadata().cwd);
    // SIGTERM reaches the program (its trap runs, its own exit code), not bwrap (which would
    // die of it and end the sandbox).
    await session.signal('SIGTERM');
    expect(await session.wait({ timeoutMs: 15_000 })).toMatchObject({
      state: 'exited',
      exitCode: 9,
      signal: null,
    });
    expect((await session.log({})).text).toContain('term-caught');
    await expect.poll(() => existsSync(box), { timeout: 10_000 }).toBe(false);
  });

  it('names a TIOCSTI attempt typed and refused before its host was SIGKILLed, once a new host recovers the session', async () => {
    const dir = stateDir();
    // Typed through the first host into an interactive bash: the attempt is in the pane's echo
    // only (the session's command is plain bash), refused inside before the crash, and no
    // caller was given that output (no poll), so it is still to be told.
    const attempt = `python3 -c "import fcntl, termios; fcntl.ioctl(0, termios.TIOCSTI, b'x')"; echo "tri""ed"\r`;
    const { child, first } = await startHost<{ id: string; pid: number }>('host.mjs', [
      dir,
      'exec bash --norc -i',
      'detached',
      'sandbox',
      attempt,
    ]);
    const box = await privateDir(first.pid);
    await waitFor(
      () => /Operation not permitted[\s\S]*\ntried/.test(paneText(dir)),
      15_000,
      'the refused attempt',
    );
    await sigkill(child);

    const { sessions } = newHost(dir);
    const report = await sessions.recover();
    expect(report.outcomes).toMatchObject([{ id: first.id, outcome: 'reattached' }]);
    const session = sessions.get(first.id);
    await expect
      .poll(() => session.metadata().sandbox?.violations.map((v) => [v.kind, v.target]), { timeout: 15_000 })
      .toEqual([['terminal-injection', 'TIOCSTI']]);
    expect(await session.kill()).toMatchObject({ state: 'killed' });
    await expect.poll(() => existsSync(box), { timeout: 10_000 }).toBe(false);
  });

  it("a 'host' sandboxed session dies with its SIGKILLed host, and its private dir goes with it", async () => {
    const dir = stateDir();
    const { child, first } = await startHost<{ id: string; pid: number }>('host.mjs', [
      dir,
      'sleep 60',
      'host',
      'sandbox',
    ]);
    const box = await privateDir(first.pid);
    const hostPid = child.pid!;
    await sigkill(child);
    await expect.poll(() => alive(first.pid), { timeout: 10_000 }).toBe(false);
    await expect.poll(() => markedBy(hostPid).length, { timeout: 10_000 }).toBe(0);
    await expect.poll(() => existsSync(box), { timeout: 10_000 }).toBe(false);
  });

  it('refuses a persisted sandboxed session with allowed domains (the proxy ends with its host)', async () => {
    const tmux = createTmuxBackend({ dir: join(stateDir(), 'tmux') });
    backends.push(tmux);
    const sessions = createProcessSessions({
      cwd: makeWorkspace(),
      ptyBackend: tmux,
      sandboxPolicy: { allowDomains: ['example.com'] },
    });
    try {
      await expect(
        sessions.start({ command: 'true', pty: true, lifetime: 'detached' }),
      ).rejects.toMatchObject({
        code: 'ERR_PROCESS_UNSUPPORTED',
        message: expect.stringContaining('cannot have allowed domains'),
      });
      expect(await tmux.listSessions()).toEqual([]);
    } finally {
      await sessions.dispose();
    }
  });
});
