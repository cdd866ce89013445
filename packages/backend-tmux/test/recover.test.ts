// The host is SIGKILLed while a persisted session prints; a new host on the same state
// recovers it: every line once, input works, the real exit code. Also: ended while detached,
// a vanished tmux session, and fencing between two live hosts.
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { locateTmux } from '../src/index.js';
import { disposeHosts, newHost } from './durable-hosts.js';
import { alive, markedBy, paneText, sigkill, startHost, stateDir, teardown } from './helpers.js';

// 40 numbered lines over 4 s, then one line of input, then a distinctive exit code.
const PRINTER =
  'i=1; while [ $i -le 40 ]; do echo "line-$i"; i=$((i+1)); sleep 0.1; done; read x; echo "got-$x"; exit 7';

afterEach(async () => {
  await disposeHosts();
  await teardown();
});

/** The private server's one session (the host named it). */
const tmuxSession = (socket: string) =>
  execFileSync('tmux', ['-S', socket, 'list-sessions', '-F', '#{session_name}'], { encoding: 'utf8' }).trim();

function serverUp(socket: string): boolean {
  try {
    execFileSync('tmux', ['-S', socket, 'list-sessions'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** True once tmux itself says no server runs on the socket. */
function noServer(socket: string): boolean {
  const r = spawnSync('tmux', ['-S', socket, 'list-sessions'], { encoding: 'utf8' });
  return r.status !== 0 && /no server running|error connecting to/.test(r.stderr);
}

const lines = (text: string) => text.split(/\r?\n/).filter((l) => l.startsWith('line-'));

describe.skipIf(process.platform === 'win32')('recovery after the host was SIGKILLed', () => {
  it('replays every line exactly once, takes input and reports the real exit code', async () => {
    const dir = stateDir();
    const { child, first } = await startHost<{ id: string; pid: number }>('host.mjs', [dir, PRINTER]);
    // Killed mid-print: some lines were read by the dead host, the rest come while none is.
    await expect.poll(() => paneText(dir), { timeout: 10_000 }).toContain('line-5');
    await sigkill(child);
    expect(alive(first.pid)).toBe(true); // the persisted process outlived its host

    const { sessions } = newHost(dir);
    const report = await sessions.recover();
    expect(report.outcomes).toMatchObject([{ id: first.id, outcome: 'reattached' }]);
    const session = sessions.get(first.id);
    await expect.poll(async () => lines((await session.log({})).text).length, { timeout: 15_000 }).toBe(40);
    await session.input('hello\r');
    const exit = await session.wait({ timeoutMs: 15_000 });
    expect(exit).toMatchObject({ state: 'exited', exitCode: 7 });
    const text = (await session.log({})).text;
    expect(lines(text)).toEqual(Array.from({ length: 40 }, (_, i) => `line-${i + 1}`));
    expect(text).toContain('got-hello');
    expect(alive(first.pid)).toBe(false);
  });

  it('a session that ended while no host was attached reports its real exit code and all its output', async () => {
    const dir = stateDir();
    const script = 'i=1; while [ $i -le 20 ]; do echo "line-$i"; i=$((i+1)); sleep 0.05; done; exit 5';
    const { child, first } = await startHost<{ id: string; pid: number }>('host.mjs', [dir, script]);
    await expect.poll(() => paneText(dir), { timeout: 10_000 }).toContain('line-2');
    await sigkill(child);
    await expect.poll(() => alive(first.pid), { timeout: 10_000 }).toBe(false);

    const { sessions } = newHost(dir);
    const report = await sessions.recover();
    expect(report.outcomes).toMatchObject([{ id: first.id, outcome: 'reattached' }]);
    const session = sessions.get(first.id);
    expect(await session.wait({ timeoutMs: 10_000 })).toMatchObject({ state: 'exited', exitCode: 5 });
    expect(lines((await session.log({})).text)).toEqual(
      Array.from({ length: 20 }, (_, i) => `line-${i + 1}`),
    );
  });

  it('a session tmux is tearing down when the new host asks (every format empty, exit 0) still reports its exit code', async () => {
    const dir = stateDir();
    const socket = join(dir, 'tmux', 'tmux.sock');
    const { child, first } = await startHost<{ id: string; pid: number }>('host.mjs', [
      dir,
      'echo line-1; read x; exit 5',
    ]);
    await expect.poll(() => paneText(dir), { timeout: 10_000 }).toContain('line-1');
    await sigkill(child);
    execFileSync('tmux', ['-S', socket, 'send-keys', '-t', tmuxSession(socket), 'go', 'Enter']);
    // The pane-died hook wrote the status, then ended the session (and with it the server).
    await expect.poll(() => serverUp(socket), { timeout: 10_000 }).toBe(false);
    // What tmux 3.3a answered under load (3 of 120 runs) while the hook's kill-session ran: the
    // pane lookup with every format empty and exit 0. A shim gives that answer every time.
    const shim = join(dir, 'tmux-shim');
    writeFileSync(
      shim,
      `#!/bin/sh\ncase "$*" in *'#{@procmux_marker} #{pane_pid}'*) echo '   '; exit 0 ;; esac\nexec ${locateTmux().path} "$@"\n`,
      { mode: 0o755 },
    );
    const { sessions } = newHost(dir, 'host-1', { ...locateTmux(), path: shim });
    const report = await sessions.recover();
    expect(report.outcomes).toMatchObject([{ id: first.id, outcome: 'reattached' }]);
    expect(await sessions.get(first.id).wait({ timeoutMs: 10_000 })).toMatchObject({
      state: 'exited',
      exitCode: 5,
    });
  });

  it('a tmux session that vanished while detached is unknown with a reason, never an exit code', async () => {
    const dir = stateDir();
    const { child, first } = await startHost<{ id: string; pid: number }>('host.mjs', [dir, 'sleep 30']);
    await sigkill(child);
    const socket = join(dir, 'tmux', 'tmux.sock');
    execFileSync('tmux', ['-S', socket, 'kill-server']);
    // kill-server returns before the server is gone; a lookup meanwhile may get "server exited
    // unexpectedly", which is rightly no answer (ERR_RECOVERY_UNREACHABLE): vanished is when
    // tmux says no server runs there.
    await expect.poll(() => noServer(socket), { timeout: 10_000 }).toBe(true);
    const { sessions } = newHost(dir);
    const report = await sessions.recover();
    expect(report.outcomes).toMatchObject([
      { id: first.id, outcome: 'unknown', exitCode: null, written: true, code: 'ERR_RECOVERY_UNKNOWN' },
    ]);
    expect(report.outcomes[0]?.reason).toMatch(/found no process/);
  });

  it("a 'host' session on tmux dies with its SIGKILLed host (the watchdog)", async () => {
    const dir = stateDir();
    const { child, first } = await startHost<{ id: string; pid: number }>('host.mjs', [
      dir,
      'sleep 60',
      'host',
    ]);
    expect(alive(first.pid)).toBe(true);
    const hostPid = child.pid!;
    await sigkill(child);
    await expect.poll(() => alive(first.pid), { timeout: 10_000 }).toBe(false);
    // Its log writer went too, and the session closed itself (its host is gone).
    await expect.poll(() => markedBy(hostPid).length, { timeout: 10_000 }).toBe(0);
  });

  it('fencing: a second live host cannot drive a session the first one holds', async () => {
    const dir = stateDir();
    const a = newHost(dir, 'host-a');
    const s = await a.sessions.start({
      command: 'sh',
      args: ['-c', 'sleep 30'],
      pty: true,
      lifetime: 'detached',
    });
    const b = newHost(dir, 'host-b');
    const report = await b.sessions.recover();
    expect(report.outcomes).toMatchObject([
      { id: s.id, outcome: 'unknown', written: false, code: 'ERR_RECOVERY_OWNERSHIP' },
    ]);
    expect(() => b.sessions.get(s.id)).toThrow(/no session/);
    expect(s.state).toBe('running');
    await s.kill();
  });
});
