// The remote backend on real tmux, its "other machine" being this one through a host effect
// that runs sh here (the SSH effect is @procmux/backend-ssh's, tested there against sshd):
// start, exact input, exit code, a second host re-attaching with the whole log, tree kill.
import { spawn } from 'node:child_process';
import { killProcessTree } from '@procmux/kill-posix';
import { createMemoryRecoveryStores, createProcessSessions } from '@procmux/sessions';
import { processTable, waitFor } from '@procmux/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createRemoteTmuxBackend,
  REMOTE_CGROUP,
  type RemoteTmuxBackend,
  type RemoteTmuxHost,
} from '../src/index.js';
import { markedBy, stateDir, teardown } from './helpers.js';

const localHost: RemoteTmuxHost = {
  name: 'me@here:22',
  run: (command, input) =>
    new Promise((resolve) => {
      const child = spawn('/bin/sh', ['-c', command], { stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        stdout += d;
      });
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        stderr += d;
      });
      child.on('close', (code) => resolve({ stdout, stderr, code: code ?? 1 }));
      child.stdin.end(input);
    }),
  async stream(command, onData) {
    const child = spawn('/bin/sh', ['-c', command], { stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.setEncoding('utf8').on('data', onData);
    const done = new Promise<void>((resolve) => child.on('close', () => resolve()));
    return { done, close: () => child.stdout.destroy() };
  },
  killTree: async (pid, marker, cgroup) => {
    await killProcessTree(pid, { marker, graceMs: 500 });
    // As the SSH effect's killer does with a pane's cgroup: what is left in it killed, then
    // removed (else only the pane-died hook would, which a kill-server right after can cut off).
    if (cgroup !== undefined) await localHost.run(`${REMOTE_CGROUP}\ncg_kill '${cgroup}'`);
  },
};

const backends: RemoteTmuxBackend[] = [];

afterEach(async () => {
  for (const b of backends.splice(0)) {
    await b.dispose();
    await localHost.run(`tmux -S ${b.socket} kill-server`);
  }
  await teardown();
});

async function host(dir: string, ownerId = 'host-a') {
  const tmux = await createRemoteTmuxBackend(localHost, { dir, environment: (env) => env });
  backends.push(tmux);
  const sessions = createProcessSessions({
    cwd: process.cwd(),
    ptyBackend: tmux,
    recoveryBackend: tmux,
    ...stores,
    ownerId,
  });
  return { tmux, sessions };
}

let stores = createMemoryRecoveryStores();

describe.skipIf(process.platform === 'win32')('tmux on another machine (through a host effect)', () => {
  it('runs a command string under that shell, takes exact input, reports exit 7 and leaves nothing', async () => {
    stores = createMemoryRecoveryStores();
    const { tmux, sessions } = await host(stateDir());
    expect(tmux.shell).toBe('bash');
    const s = await sessions.start({
      shell: true,
      command: 'echo "n-1"; read x; echo "got-$x"; [[ 1 == 1 ]] && exit 7',
      pty: true,
      lifetime: 'detached',
    });
    expect(s.metadata()).toMatchObject({
      shellName: 'bash',
      backendMetadata: { tmux: { host: 'me@here:22' } },
    });
    let seen = '';
    while (!seen.includes('n-1')) seen += (await s.poll({ timeoutMs: 2_000 })).stdout;
    await s.resize?.({ columns: 100, rows: 30 });
    await s.input('héllo\r');
    expect(await s.wait({ timeoutMs: 15_000 })).toMatchObject({ exitCode: 7 });
    expect((await s.log()).text).toContain('got-héllo');
    expect(await tmux.listSessions()).toEqual([]);
    await sessions.dispose();
  });

  it('the next host re-attaches with the whole log from line 1 and kills the tree', async () => {
    stores = createMemoryRecoveryStores();
    const dir = stateDir();
    const a = await host(dir);
    const s = await a.sessions.start({
      shell: true,
      command: 'i=1; while :; do echo "n-$i"; i=$((i+1)); sleep 0.1; done',
      pty: true,
      lifetime: 'detached',
    });
    let seen = '';
    while (!seen.includes('n-3')) seen += (await s.poll({ timeoutMs: 2_000 })).stdout;
    await a.sessions.dispose();
    await a.tmux.dispose();
    // The first host let go without ending it; the next one (same owner id, as a restarted
    // host) finds it there.
    const b = await host(dir);
    const report = await b.sessions.recover();
    expect(report.outcomes.map((o) => o.outcome)).toEqual(['reattached']);
    const again = b.sessions.get(s.id);
    let lines: string[] = [];
    while (lines.length < 6) {
      lines = (await again.log()).text.match(/^n-\d+/gm) ?? [];
      await again.poll({ timeoutMs: 500 });
    }
    expect(lines.slice(0, 6)).toEqual(['n-1', 'n-2', 'n-3', 'n-4', 'n-5', 'n-6']);
    await again.kill();
    expect(markedBy(process.pid)).toEqual([]);
    await b.sessions.dispose();
  });

  it('re-attaches the sessions a host left with one tmux lookup on the remote host for all of them', async () => {
    stores = createMemoryRecoveryStores();
    const dir = stateDir();
    const a = await host(dir);
    const started = [];
    for (let n = 0; n < 4; n++) {
      started.push(
        await a.sessions.start({
          shell: true,
          command: 'echo up; sleep 60',
          pty: true,
          lifetime: 'detached',
        }),
      );
    }
    await a.sessions.dispose();
    await a.tmux.dispose();
    // The next host, its every command on the remote host counted (each is an SSH exec there).
    const commands: string[] = [];
    const counting: RemoteTmuxHost = {
      ...localHost,
      run: (command, input) => {
        commands.push(command);
        return localHost.run(command, input);
      },
    };
    const tmux = await createRemoteTmuxBackend(counting, { dir, environment: (env) => env });
    backends.push(tmux);
    const b = createProcessSessions({
      cwd: process.cwd(),
      ptyBackend: tmux,
      recoveryBackend: tmux,
      ...stores,
      ownerId: 'host-a',
    });
    commands.length = 0;
    const report = await b.recover();
    expect(report.outcomes.map((o) => o.outcome)).toEqual(Array(4).fill('reattached'));
    expect(commands.filter((c) => /'(display-message|list-panes)'/.test(c))).toHaveLength(1);
    for (const s of started) expect(b.get(s.id).metadata().pid).toBe(s.pid);
    for (const s of started) await b.get(s.id).kill();
    expect(markedBy(process.pid)).toEqual([]);
    await b.dispose();
  });

  it('a listing that failed there is an error, never "none": killServer() kills and deletes nothing', async () => {
    stores = createMemoryRecoveryStores();
    const dir = stateDir();
    let failing = false;
    // tmux there answers with an error that is not its "no server" (another tmux binary than
    // the server's, say).
    const flaky: RemoteTmuxHost = {
      ...localHost,
      run: (command, input) =>
        failing && /'(list-panes|list-sessions)'/.test(command)
          ? Promise.resolve({ stdout: '', stderr: 'protocol version mismatch (client 8, server 7)', code: 1 })
          : localHost.run(command, input),
    };
    const tmux = await createRemoteTmuxBackend(flaky, { dir, environment: (env) => env });
    backends.push(tmux);
    const sessions = createProcessSessions({ cwd: process.cwd(), ptyBackend: tmux });
    const s = await sessions.start({ shell: true, command: 'sleep 60', pty: true, lifetime: 'detached' });
    failing = true;
    await expect(tmux.listSessions()).rejects.toMatchObject({
      code: 'ERR_PROCESS_PTY_BACKEND',
      message: 'tmux list-sessions failed: protocol version mismatch (client 8, server 7)',
    });
    await expect(tmux.killServer()).rejects.toMatchObject({
      code: 'ERR_PROCESS_PTY_BACKEND',
      message: 'tmux list-panes failed: protocol version mismatch (client 8, server 7)',
    });
    expect(processTable().some((p) => p.pid === s.pid && p.state !== 'Z')).toBe(true);
    failing = false;
    expect(await tmux.listSessions()).toHaveLength(1);
    await tmux.killServer();
    expect(await tmux.listSessions()).toEqual([]);
    await waitFor(
      () => !processTable().some((p) => p.pid === s.pid && p.state !== 'Z'),
      10_000,
      'the tree to end',
    );
    await sessions.dispose();
  });

  it('follows a log with one tail that ends with the log writer: no process forked while it follows', async () => {
    stores = createMemoryRecoveryStores();
    const { tmux, sessions } = await host(stateDir());
    const s = await sessions.start({
      shell: true,
      command: 'i=1; while [ $i -le 3 ]; do echo "n-$i"; i=$((i+1)); sleep 0.2; done; read x; echo "got-$x"',
      pty: true,
      lifetime: 'detached',
    });
    let seen = '';
    while (!seen.includes('n-3')) seen += (await s.poll({ timeoutMs: 2_000 })).stdout;
    const session = (s.metadata().backendMetadata as { tmux: { session: string } }).tmux.session;
    const log = `${tmux.socket.replace(/tmux\.sock$/, 'sessions')}/${session}.log`;
    // What names the log, but for the tmux server (its argv is the first client's) and this
    // effect's own `sh -c` around the follower: the writer, and one tail watching the writer's
    // pid; no watcher loop (`sleep`) beside it.
    const readers = () =>
      processTable().filter(
        (p) =>
          p.state !== 'Z' &&
          p.command.includes(log) &&
          p.ppid !== process.pid &&
          !p.command.includes('new-session'),
      );
    const writer = readers().find((p) => p.command.startsWith('sh -c cat >>'));
    expect(writer).toBeDefined();
    expect(
      readers()
        .map((p) => p.command)
        .sort(),
    ).toEqual([writer!.command, `tail -s 0.05 -c +1 --pid=${writer!.pid} -f ${log}`].sort());
    await s.input('bye\r');
    expect(await s.wait({ timeoutMs: 15_000 })).toMatchObject({ exitCode: 0 });
    expect((await s.log()).text).toMatch(/n-1[\s\S]*n-3[\s\S]*got-bye/);
    await waitFor(() => readers().length === 0, 10_000, 'the tail and the writer to end');
    await sessions.dispose();
  });

  it('an Enter given after a resize is answered at the new size, however slow the resize exec is', async () => {
    stores = createMemoryRecoveryStores();
    // A resize whose exec is slow (an SSH exec pays the login shell's rc): held until the
    // program has ended, or 500 ms. Input that overtakes it ends the program at the old size.
    let ended: Promise<unknown> = new Promise(() => {});
    const slowResize: RemoteTmuxHost = {
      ...localHost,
      run: async (command, input) => {
        if (command.includes("'resize-window'")) {
          await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 500))]);
        }
        return localHost.run(command, input);
      },
    };
    const tmux = await createRemoteTmuxBackend(slowResize, { dir: stateDir(), environment: (env) => env });
    backends.push(tmux);
    const sessions = createProcessSessions({
      cwd: process.cwd(),
      ptyBackend: tmux,
      recoveryBackend: tmux,
      ...stores,
      ownerId: 'host-a',
    });
    const s = await sessions.start({
      shell: true,
      command: 'stty size; read -r x; stty size',
      pty: true,
      lifetime: 'detached',
    });
    ended = s.wait({ timeoutMs: 15_000 });
    let seen = '';
    while (!seen.includes('40 120')) seen += (await s.poll({ timeoutMs: 2_000 })).stdout;
    await s.resize!({ columns: 101, rows: 33 });
    await s.input('again\r');
    expect(await s.wait({ timeoutMs: 15_000 })).toMatchObject({ exitCode: 0 });
    expect((await s.log()).text.match(/^\d+ \d+/gm)).toEqual(['40 120', '33 101']);
    await sessions.dispose();
  });

  it('refuses a session that would end with its host: the remote server keeps detached ones only', async () => {
    stores = createMemoryRecoveryStores();
    const { tmux } = await host(stateDir());
    await expect(
      tmux.startPty({
        file: 'true',
        args: [],
        cwd: process.cwd(),
        env: {},
        columns: 80,
        rows: 24,
        term: 'xterm',
        lifetime: 'host',
        onData() {},
      }),
    ).rejects.toMatchObject({ code: 'ERR_PROCESS_UNSUPPORTED' });
  });
});
