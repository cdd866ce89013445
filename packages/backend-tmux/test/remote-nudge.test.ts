// The reap nudge a host sends to a remote tmux server after killing a pane: one SIGCHLD to the
// server, only when the pane's process is that server's zombie. Run here with sh, a parent that
// never reaps (as tmux after a SIGCHLD lost in libutempter's window) and a tmux stand-in that
// names it as the server.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertNoLeakedProcesses, trackPid, waitFor } from '@procmux/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { reapNudgeCommand } from '../src/remote/remote-pane.js';

// Forks a child that exits at once and never reaps it; writes the child's pid, then a line per
// SIGCHLD it gets (and only then reaps), and one per SIGWINCH: a signal sent after a SIGCHLD is
// handled after it (Python runs pending handlers in signal-number order, 17 before 28).
const PARENT = `
import os, signal, sys, time
got = sys.argv[1]
def on_child(signum, frame):
    with open(got, 'a') as f: f.write('chld\\n')
    os.waitpid(-1, os.WNOHANG)
child = os.fork()
if child == 0:
    os._exit(0)
time.sleep(0.2)
signal.signal(signal.SIGCHLD, on_child)
def on_winch(signum, frame):
    with open(got, 'a') as f: f.write('winch\\n')
signal.signal(signal.SIGWINCH, on_winch)
print(child, flush=True)
while True: time.sleep(1)
`;

describe.skipIf(process.platform !== 'linux')('the remote reap nudge', () => {
  let dir: string | undefined;
  let parent: ChildProcess | undefined;
  afterEach(async () => {
    parent?.kill('SIGKILL');
    parent = undefined;
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
    await assertNoLeakedProcesses();
  });

  async function zombieOfA(): Promise<{ server: number; zombie: number; got: string; tmux: string }> {
    dir = mkdtempSync(join(tmpdir(), 'procmux-nudge-'));
    const got = join(dir, 'got');
    parent = spawn('python3', ['-c', PARENT, got], { stdio: ['ignore', 'pipe', 'inherit'] });
    trackPid(parent.pid);
    let out = '';
    parent.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
    });
    const zombie = Number(await waitFor(() => out.trim(), 10_000, 'the zombie pid'));
    expect(readFileSync(`/proc/${zombie}/stat`, 'utf8')).toMatch(/\) Z /);
    // The tmux stand-in answers display-message -p '#{pid}' with the parent: "the server".
    const tmux = join(dir, 'tmux');
    writeFileSync(tmux, `#!/bin/sh\necho ${parent.pid}\n`);
    chmodSync(tmux, 0o755);
    return { server: parent.pid!, zombie, got, tmux };
  }

  it("signals the server once when the pane's process is its zombie, and it reaps it", async () => {
    const { zombie, got, tmux } = await zombieOfA();
    const ran = spawnSync('/bin/sh', ['-c', reapNudgeCommand(tmux, '/nonexistent/socket', zombie)]);
    expect(ran.status).toBe(0);
    // The handler opens the file before it writes: wait for the line, not the file.
    await waitFor(() => existsSync(got) && readFileSync(got, 'utf8').endsWith('\n'), 10_000, 'the SIGCHLD');
    expect(readFileSync(got, 'utf8')).toBe('chld\n');
    await waitFor(() => !existsSync(`/proc/${zombie}`), 10_000, 'the zombie reaped');
  });

  it('signals nothing for a live process, a zombie of another parent, or a server that does not answer', async () => {
    const { server, zombie, got, tmux } = await zombieOfA();
    const other = join(dir!, 'other-tmux');
    writeFileSync(other, `#!/bin/sh\necho ${process.pid}\n`);
    chmodSync(other, 0o755);
    const silent = join(dir!, 'silent-tmux');
    writeFileSync(silent, '#!/bin/sh\nexit 1\n');
    chmodSync(silent, 0o755);
    for (const [binary, pid] of [
      [tmux, server],
      [other, zombie],
      [silent, zombie],
    ] as const)
      expect(spawnSync('/bin/sh', ['-c', reapNudgeCommand(binary, '/s', pid)]).status).toBe(0);
    process.kill(server, 'SIGWINCH');
    await waitFor(
      () => existsSync(got) && readFileSync(got, 'utf8').includes('winch\n'),
      10_000,
      'the WINCH',
    );
    expect(readFileSync(got, 'utf8')).toBe('winch\n');
    expect(readFileSync(`/proc/${zombie}/stat`, 'utf8')).toMatch(/\) Z /);
  });
});
