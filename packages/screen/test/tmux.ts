// A reference terminal for differential tests: tmux on a private socket, fed the exact bytes
// of a fixture, read back with capture-pane.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { isAlive, trackPid, waitFor } from '@procmux/test-utils';

const run = promisify(execFile);

export interface TmuxCapture {
  /** `capture-pane -p -J -S -`: the history and the pane, wrapped lines joined. */
  full: string;
  /** `capture-pane -p`: the visible rows only, one per line. */
  screen: string;
  cols: number;
  rows: number;
}

/** Feeds `bytes` to a fresh tmux pane of the given size and captures what it shows. */
export async function captureWithTmux(bytes: Uint8Array, cols: number, rows: number): Promise<TmuxCapture> {
  const dir = mkdtempSync(join(tmpdir(), 'procmux-tmux-'));
  // The socket in the private dir: `-L` left one in /tmp/tmux-<uid>/ per capture (kill-server
  // does not remove it), hundreds per suite run.
  const socket = join(dir, 'tmux.sock');
  const env = { ...process.env, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', TMUX: '' };
  const tmux = (...args: string[]) =>
    run('tmux', ['-u', '-S', socket, '-f', join(dir, 'tmux.conf'), ...args], { env, timeout: 30_000 });
  writeFileSync(join(dir, 'stream.bin'), bytes);
  // No status line: the pane gets every row. raw -echo: the bytes reach tmux unchanged, and the
  // answers tmux gives to the stream's queries are not echoed onto the screen.
  writeFileSync(join(dir, 'tmux.conf'), 'set -g status off\nset -g history-limit 50000\n');
  let serverPid: number | undefined;
  try {
    await tmux(
      'new-session',
      '-d',
      '-x',
      String(cols),
      '-y',
      String(rows),
      `stty raw -echo; cat ${join(dir, 'stream.bin')}; tmux wait-for -S fed; exec sleep 600`,
    );
    // The server daemonizes, so it is no descendant of this worker: track it and the pane's shell.
    const [server, pane] = (await tmux('display', '-p', '#{pid} #{pane_pid}')).stdout.trim().split(' ');
    serverPid = Number(server);
    trackPid(serverPid);
    trackPid(Number(pane));
    await tmux('wait-for', 'fed');
    const size = (await tmux('display', '-p', '#{pane_width} #{pane_height}')).stdout.trim().split(' ');
    const full = (await tmux('capture-pane', '-p', '-J', '-S', '-')).stdout;
    const screen = (await tmux('capture-pane', '-p')).stdout;
    return { full, screen, cols: Number(size[0]), rows: Number(size[1]) };
  } finally {
    await tmux('kill-server').catch(() => undefined);
    if (serverPid !== undefined) {
      const pid = serverPid;
      await waitFor(() => !isAlive(pid), 10_000, `tmux server ${pid} to exit`);
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Lines right-trimmed, trailing blank lines dropped: how both sides are compared. */
export function normalize(text: string): string[] {
  const lines = text.split('\n').map((line) => line.replace(/ +$/, ''));
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}
