// The remote cgroup kill where the remote host has no cgroup v2 (cgroup.kill): the v1 freezer
// path (freeze, SIGKILL each member, thaw, remove), run by sh here on this hybrid host's own v1
// freezer hierarchy, beneath this worker's freezer cgroup.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { assertNoLeakedProcesses, leakedCgroups, removeCgroup, waitFor } from '@procmux/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { REMOTE_CGROUP } from '../src/remote-scripts.js';

function ownFreezer(): string | undefined {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return undefined;
  const path = /^\d+:freezer:(.*)$/m.exec(readFileSync('/proc/self/cgroup', 'utf8'))?.[1];
  const mount = readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((line) => line.split(' '))
    .find((f) => f[3] === '/' && f.includes('cgroup') && /(^|,)freezer(,|$)/.test(f[f.length - 1] ?? ''));
  return path === undefined || mount === undefined ? undefined : `${mount[4]}${path === '/' ? '' : path}`;
}

const parent = ownFreezer();

function escapees(): number[] {
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .filter((e) => {
      try {
        return readFileSync(`/proc/${e}/cmdline`, 'utf8') === 'sleep\u0000301.5\u0000';
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe.skipIf(parent === undefined)('the remote cgroup kill on a v1 freezer hierarchy', () => {
  afterAll(async () => {
    const left = escapees();
    for (const pid of left) process.kill(pid, 'SIGKILL');
    const cgroups = leakedCgroups();
    for (const cgroup of cgroups) removeCgroup(cgroup.dir);
    expect({ left, cgroups }).toEqual({ left: [], cgroups: [] });
    await assertNoLeakedProcesses();
  });

  it('kills an escapee that left the group and its environment, and removes the cgroup', async () => {
    const dir = `${parent}/procmux-${process.pid}-ssh-v1test`;
    mkdirSync(dir);
    expect(existsSync(`${dir}/cgroup.kill`)).toBe(false);
    const child = spawn(
      'sh',
      ['-c', `echo $$ > "$1/cgroup.procs"; (setsid sh -c 'exec env -i sleep 301.5' &); sleep 60`, 'sh', dir],
      { stdio: 'ignore' },
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await waitFor(() => escapees().length === 1, 10_000, 'the escapee to be up');
    const out = execFileSync('sh', ['-c', `${REMOTE_CGROUP}\ncg_kill "$1" && echo removed`, 'sh', dir], {
      encoding: 'utf8',
    });
    expect(out).toBe('removed\n');
    await exited;
    expect({ left: escapees(), dir: existsSync(dir) }).toEqual({ left: [], dir: false });
  });
});
