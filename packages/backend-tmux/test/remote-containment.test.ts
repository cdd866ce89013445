// The remote pane's containment effects, run by a real sh on this machine as they run on the
// remote one: the cgroup made beneath the calling shell's own, the check a re-attaching host
// makes before it adopts a cgroup a record names, the pid-namespace probe, and the program pid
// a signal goes to under a namespace's waiter.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostCgroupLayout, hostPidNamespaceSupport } from '@procmux/supervisor';
import { assertNoLeakedProcesses, leakedCgroups, removeCgroup, waitFor } from '@procmux/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import type { RemoteTmuxHost } from '../src/index.js';
import {
  adoptRemotePane,
  namespaceWords,
  type RemoteRun,
  remoteHolder,
  remotePidNamespaceSupport,
  remoteProgramPid,
  removeRemoteCgroup,
} from '../src/remote/remote-containment.js';

const run: RemoteRun = async (command) => {
  const r = spawnSync('/bin/sh', ['-c', command], { encoding: 'utf8' });
  return { stdout: r.stdout, stderr: r.stderr, code: r.status ?? 1 };
};
const run0 = (command: string) => spawnSync('/bin/sh', ['-c', command], { encoding: 'utf8' }).stdout.trim();
const host: RemoteTmuxHost = {
  name: 'me@here:22',
  run,
  stream: async () => {
    throw new Error('not used');
  },
  killTree: async () => {},
};

const layout = process.platform === 'linux' ? hostCgroupLayout() : undefined;
const root = process.getuid?.() === 0 && layout?.unified !== undefined;
const session = () => `pm-${randomBytes(6).toString('hex')}`;

/** A sleep whose first act is to join `dir` (as a pane's start script does). */
function memberOf(dir: string) {
  const child = spawn('sh', ['-c', 'echo $$ > "$1/cgroup.procs" && exec sleep 60', 'sh', dir], {
    stdio: 'ignore',
  });
  return child;
}

afterAll(async () => {
  const left = leakedCgroups();
  for (const { dir } of left) removeCgroup(dir);
  expect(left).toEqual([]);
  await assertNoLeakedProcesses();
});

describe.skipIf(!root)('a remote cgroup (as root, beneath the shell’s own v2 cgroup)', () => {
  it('is made beneath the calling shell’s cgroup, named for this host and the session; removed with its members', async () => {
    const name = session();
    const made = await remoteHolder(host).cgroup(name);
    expect(made).toEqual({ dir: `${layout!.unified}/procmux-${process.pid}-${name}` });
    const { dir } = made as { dir: string };
    const child = memberOf(dir);
    const gone = new Promise((resolve) => child.once('exit', resolve));
    await waitFor(
      async () => (await run(`cat ${dir}/cgroup.procs`)).stdout.includes(`${child.pid}`),
      5_000,
      'the sleep to join',
    );
    expect(await removeRemoteCgroup(run, dir)).toBe(true);
    await gone;
    expect(existsSync(dir)).toBe(false);
  });

  it('is adopted only when it is the one made for that session, on a cgroup mount, holding the pane', async () => {
    const name = session();
    const { dir } = (await remoteHolder(host).cgroup(name)) as { dir: string };
    const child = memberOf(dir);
    const gone = new Promise((resolve) => child.once('exit', resolve));
    try {
      await waitFor(
        async () => (await run(`cat ${dir}/cgroup.procs`)).stdout.includes(`${child.pid}`),
        5_000,
        'the sleep to join',
      );
      expect(await adoptRemotePane(run, name, [dir], child.pid)).toBe('cgroup');
      // A pane that already ended: its cgroup is adopted to be removed.
      expect(await adoptRemotePane(run, name, [dir], undefined)).toBe('cgroup');
      // Another session's record, a pid that is not in it, a directory off every cgroup mount.
      expect(await adoptRemotePane(run, session(), [dir], child.pid)).toBe('marker');
      expect(await adoptRemotePane(run, name, [dir], process.pid)).toBe('marker');
      const off = `/tmp/procmux-${process.pid}-${name}`;
      mkdirSync(off);
      try {
        expect(await adoptRemotePane(run, name, [off], undefined)).toBe('marker');
      } finally {
        rmdirSync(off);
      }
      // Never the shell's own cgroup (nor one above it), even when named for the session.
      expect(await adoptRemotePane(run, name, [layout!.unified!], undefined)).toBe('marker');
    } finally {
      await removeRemoteCgroup(run, dir);
      await gone;
    }
  });
});

describe.skipIf(process.platform !== 'linux')('a pid namespace on the remote machine', () => {
  it('is probed there as supervisor probes this host, and names what is missing', async () => {
    const here = await hostPidNamespaceSupport();
    expect(await remotePidNamespaceSupport(run)).toEqual(here);
    // A machine with uname and id but no util-linux on its PATH.
    const bin = mkdtempSync(join(tmpdir(), 'pm-bare-'));
    for (const tool of ['uname', 'id']) symlinkSync(run0(`command -v ${tool}`), join(bin, tool));
    const bare: RemoteRun = (command) => run(`PATH=${bin}; ${command}`);
    const missing = await remotePidNamespaceSupport(bare);
    rmSync(bin, { recursive: true, force: true });
    expect(missing).toEqual({ ok: false, reason: 'unshare (util-linux) is not on PATH' });
  });

  it('a signal goes to the program under the waiter, not the waiter', async () => {
    const support = await hostPidNamespaceSupport();
    if (!support.ok) return;
    const [file, ...args] = namespaceWords(support.spec);
    const child = spawn(file!, [...args, 'sleep', '60'], { stdio: 'ignore' });
    const ended = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    let program = child.pid!;
    await waitFor(
      async () => {
        program = await remoteProgramPid(run, child.pid!);
        return program !== child.pid;
      },
      5_000,
      'the program under the waiter',
    );
    expect((await run(`cat /proc/${program}/cmdline`)).stdout).toBe('sleep\u000060\u0000');
    expect(await adoptRemotePane(run, 'pm-000000000000', undefined, child.pid)).toBe('pid-namespace');
    process.kill(program, 'SIGINT');
    // The waiter dies of the program's own signal: the exit status stays exact.
    expect(await ended).toEqual({ code: null, signal: 'SIGINT' });
  });
});
