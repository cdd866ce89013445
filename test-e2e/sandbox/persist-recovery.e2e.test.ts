// `procmux mcp --sandbox` with a persisted (tmux-held) session whose server is SIGKILLed
// (issue 29): a TIOCSTI attempt typed before the crash, refused inside and not yet told to the
// model, is named in the first reply of the server that recovers the session; and a server the
// session runs inside its sandbox answers the session's curl through the recovering server's proxy.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { assertNoLeakedProcesses, assertNoSandboxDirs, privateTmpdir, waitFor } from '@procmux/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { type SandboxedServer, sandboxRoot, sessionId, startSandboxed } from './sandbox-server.js';

const linux = process.platform === 'linux';
const tmp = linux ? privateTmpdir() : '';
const none = { root: '', workspace: '', home: '', stateDir: '' };
// Each test its own state dir: a server left running by one would adopt the other's session.
const dirs = linux ? sandboxRoot() : none;
const ownServerDirs = linux ? sandboxRoot() : none;
const socket = join(dirs.stateDir, 'tmux', 'tmux.sock');
const servers: SandboxedServer[] = [];

afterAll(async () => {
  if (!linux) return;
  for (const root of [dirs, ownServerDirs]) {
    try {
      execFileSync('tmux', ['-S', join(root.stateDir, 'tmux', 'tmux.sock'), 'kill-server'], {
        stdio: 'ignore',
      });
    } catch {}
  }
  for (const server of servers) await server.close().catch(() => {});
  for (const root of [dirs, ownServerDirs]) rmSync(root.root, { recursive: true, force: true });
  await assertNoLeakedProcesses();
  await assertNoSandboxDirs(tmp);
  rmSync(tmp, { recursive: true, force: true });
});

/** What the private tmux server's panes show (the server's own view, not the model's). */
function panes(): string {
  const tmux = (args: string[]) =>
    execFileSync('tmux', ['-S', socket, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    return tmux(['list-panes', '-a', '-F', '#{pane_id}'])
      .split('\n')
      .filter(Boolean)
      .map((pane) => tmux(['capture-pane', '-p', '-J', '-S', '-', '-t', pane]))
      .join('\n');
  } catch {
    return '';
  }
}

describe.skipIf(!linux)('procmux mcp --sandbox, a persisted session after a SIGKILLed server', () => {
  it('names a TIOCSTI attempt typed before the crash in the first reply of the recovering server', async () => {
    const first = await startSandboxed([], dirs);
    servers.push(first);
    const started = await first.call('exec', { mode: 'session', persist: true, command: 'bash --norc -i' });
    expect(started.isError).toBe(false);
    const id = sessionId(started.text);
    const written = await first.call('process', {
      action: 'write',
      session_id: id,
      data: `python3 -c "import fcntl, termios; fcntl.ioctl(0, termios.TIOCSTI, b'x')"; echo "tri""ed"\r`,
    });
    expect(written.text).not.toContain('sandbox:');
    await waitFor(() => /Operation not permitted[\s\S]*\ntried/.test(panes()), 15_000, 'the refused attempt');
    process.kill(first.serverPid, 'SIGKILL');

    const second = await startSandboxed([], dirs);
    servers.push(second);
    const polled = await second.call('process', { action: 'poll', session_id: id, timeout: 5_000 });
    expect(polled.text).toContain('Operation not permitted');
    expect(polled.text).toContain('sandbox: terminal input injection (TIOCSTI) refused');
    const killed = await second.call('process', { action: 'kill', session_id: id });
    expect(killed.isError).toBe(false);
  });

  it("reaches the session's own server through the proxy before the crash and through the recovering server's after", async () => {
    const first = await startSandboxed([], ownServerDirs);
    servers.push(first);
    const started = await first.call('exec', { mode: 'session', persist: true, command: 'bash --norc -i' });
    const id = sessionId(started.text);
    const fetched = async (server: SandboxedServer, mark: string) => {
      await server.call('process', {
        action: 'write',
        session_id: id,
        data: `echo "${mark}: $(curl -s http://localhost:8765/page.txt)"\r`,
      });
      const r = await server.call('process', {
        action: 'wait_for',
        session_id: id,
        pattern: `^${mark}: `,
        timeout: 30_000,
      });
      expect(r.text).toMatch(new RegExp(`^${mark}: inside page\\r?$`, 'm'));
    };
    await first.call('process', {
      action: 'write',
      session_id: id,
      data: 'echo inside page > page.txt; python3 -m http.server 8765 --bind 127.0.0.1 2>/dev/null &\r',
    });
    await first.call('process', { action: 'wait_for', session_id: id, port: 8765, timeout: 30_000 });
    await fetched(first, 'before');
    process.kill(first.serverPid, 'SIGKILL');

    const second = await startSandboxed([], ownServerDirs);
    servers.push(second);
    await fetched(second, 'after');
    expect((await second.call('process', { action: 'kill', session_id: id })).isError).toBe(false);
  });
});
