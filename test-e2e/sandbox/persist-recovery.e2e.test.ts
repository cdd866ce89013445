// `procmux mcp --sandbox` with a persisted (tmux-held) session whose server is SIGKILLed
// (issue 29): a TIOCSTI attempt typed before the crash, refused inside and not yet told to the
// model, is named in the first reply of the server that recovers the session.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { assertNoLeakedProcesses, assertNoSandboxDirs, privateTmpdir, waitFor } from '@procmux/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { type SandboxedServer, sandboxRoot, sessionId, startSandboxed } from './sandbox-server.js';

const linux = process.platform === 'linux';
const tmp = linux ? privateTmpdir() : '';
const dirs = linux ? sandboxRoot() : { root: '', workspace: '', home: '', stateDir: '' };
const socket = join(dirs.stateDir, 'tmux', 'tmux.sock');
const servers: SandboxedServer[] = [];

afterAll(async () => {
  if (!linux) return;
  try {
    execFileSync('tmux', ['-S', socket, 'kill-server'], { stdio: 'ignore' });
  } catch {}
  for (const server of servers) await server.close().catch(() => {});
  rmSync(dirs.root, { recursive: true, force: true });
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
});
