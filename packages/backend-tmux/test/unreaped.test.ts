// A pane process tmux did not reap: found through /proc/<pid>/stat, and the server (only the
// server) is sent one SIGCHLD so it reaps it.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nudgeReaper, zombieParent, zombieParentOf } from '../src/unreaped.js';

const stat = (state: string, ppid: number) =>
  `123 (sh) ${state} ${ppid} ${Array.from({ length: 47 }, (_, i) => String(i + 5)).join(' ')} 0\n`;

describe('zombieParentOf', () => {
  it('reads the parent of a zombie, and nothing of a live process', () => {
    expect(zombieParentOf(stat('Z', 4242))).toBe(4242);
    expect(zombieParentOf(stat('S', 4242))).toBeUndefined();
    // A command name with ") " in it does not shift the fields.
    expect(zombieParentOf(stat('Z', 77).replace('(sh)', '(a) Z 9 b)'))).toBe(77);
    // Reparented to init (its tmux server is gone): nobody to nudge.
    expect(zombieParentOf(stat('Z', 1))).toBeUndefined();
  });

  it('is undefined off Linux and when /proc cannot be read', () => {
    expect(zombieParent(1, 'darwin', () => stat('Z', 50))).toBeUndefined();
    expect(
      zombieParent(1, 'linux', () => {
        throw new Error('ENOENT');
      }),
    ).toBeUndefined();
  });
});

describe('nudgeReaper', () => {
  const effects = (parent: number | undefined, server: number | undefined) => {
    const kills: [number, string][] = [];
    return {
      kills,
      zombieParent: () => parent,
      serverPid: async () => server,
      kill: (pid: number, signal: 'SIGCHLD') => {
        kills.push([pid, signal]);
      },
    };
  };

  it('sends SIGCHLD to the tmux server that holds the zombie', async () => {
    const e = effects(300, 300);
    expect(await nudgeReaper(12, e)).toBe(true);
    expect(e.kills).toEqual([[300, 'SIGCHLD']]);
  });

  it('signals nobody when the process is not a zombie, or its parent is not the server', async () => {
    for (const e of [effects(undefined, 300), effects(301, 300), effects(300, undefined)]) {
      expect(await nudgeReaper(12, e)).toBe(false);
      expect(e.kills).toEqual([]);
    }
  });
});

describe.skipIf(process.platform !== 'linux')('zombieParent on a real unreaped child', () => {
  it('names the parent of a child that exited and was not waited for', async () => {
    // A child that exits once its parent has become `sleep` (which never waits): a zombie until
    // the parent ends. (Exiting before the exec let sh reap it first.)
    const parent = spawn('sh', ['-c', 'sh -c "sleep 0.3; exit 5" & echo $!; exec sleep 3'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const pid = await new Promise<number>((resolve) =>
      parent.stdout.once('data', (d) => resolve(Number(String(d).trim()))),
    );
    await expect
      .poll(() => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0], { timeout: 5_000 })
      .toBe('Z');
    expect(zombieParent(pid)).toBe(parent.pid);
    parent.kill('SIGKILL');
    await new Promise((resolve) => parent.once('exit', resolve));
  });
});
