// A session's cgroup on this host's real cgroupfs (Linux, root or a delegated subtree): the
// escapees a tree kill cannot find end with it, the pids limit holds, usage is read, and no
// file outside the host's own cgroups is ever written. Skipped only where this host cannot
// make a cgroup at all (the reason is printed).
import { randomBytes } from 'node:crypto';
import { isProcmuxError } from '@procmux/core-types';
import {
  checkLeaksAfterAll,
  descendantsOf,
  processTable,
  procmuxCgroups,
  waitFor,
} from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { type CgroupEffects, killAndRemove } from '../../src/cgroup/kill.js';
import { isBeneath } from '../../src/cgroup/layout.js';
import { hostCgroupLayout, nodeCgroupEffects, SessionCgroup } from '../../src/cgroup/session-cgroup.js';
import { ProcessSupervisor } from '../../src/supervisor.js';

checkLeaksAfterAll();

const layout = process.platform === 'linux' ? hostCgroupLayout() : undefined;
const cannot = (() => {
  if (layout === undefined) return 'no cgroup hierarchy is visible';
  try {
    SessionCgroup.create({ layout, id: `probe-${randomBytes(3).toString('hex')}` }).close();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
})();
if (cannot) console.info(`[procmux] real-cgroup tests not run: ${cannot}`);

function tag(): string {
  return `30${Math.floor(Math.random() * 1e6)}.${Math.floor(Math.random() * 1e6)}`;
}

/** Live (non-zombie) processes whose whole command line is `command` (not a shell quoting it). */
function running(text: string): number[] {
  return processTable()
    .filter((p) => p.state !== 'Z' && p.command === text)
    .map((p) => p.pid);
}

let ids = 0;
function newCgroup(
  options: { limits?: { pids?: number; memoryBytes?: number }; effects?: CgroupEffects } = {},
) {
  ids += 1;
  return SessionCgroup.create({
    layout: layout!,
    id: `t${ids}-${randomBytes(3).toString('hex')}`,
    ...options,
  });
}

const supervisor = new ProcessSupervisor({ watchdog: false });

describe.skipIf(cannot !== undefined)('a session cgroup on the real cgroupfs', () => {
  it('kills a setsid escapee that cleared its environment when the run is cancelled, and removes the cgroup', async () => {
    const sleep = tag();
    const cgroup = newCgroup();
    const run = await supervisor.spawn({
      command: `(setsid sh -c 'exec env -i sleep ${sleep}' &); echo up; sleep 60`,
      cgroup,
    });
    // Escaped for real: no longer a descendant of the run (its subshell parent has exited).
    await waitFor(
      () => {
        const [pid] = running(`sleep ${sleep}`);
        return pid !== undefined && !descendantsOf(run.pid!, processTable()).some((p) => p.pid === pid);
      },
      10_000,
      'the escapee to leave the tree',
    );
    expect(cgroup.members().length).toBeGreaterThanOrEqual(2);
    run.cancel();
    await run.wait();
    expect(running(`sleep ${sleep}`)).toEqual([]);
    expect(procmuxCgroups().filter((c) => cgroup.dirs.includes(c.dir))).toEqual([]);
  });

  it('ends a double-forking daemon that closed every descriptor when the session ends on its own', async () => {
    const sleep = tag();
    const cgroup = newCgroup();
    const daemon = [
      'import os',
      'if os.fork() == 0:',
      '    os.setsid()',
      '    if os.fork() == 0:',
      '        os.closerange(0, 65536)',
      `        os.execve("/bin/sleep", ["sleep", "${sleep}"], {})`,
      '    os._exit(0)',
      'os.wait()',
      // The session's root ends only when told, so the test sees the daemon run first.
      'import sys; sys.stdin.readline()',
    ].join('\n');
    const run = await supervisor.spawn({ file: 'python3', args: ['-c', daemon], cgroup, stdin: 'open' });
    // The daemon outlives its parent: reparented away from the session's root.
    await waitFor(
      () => {
        const [pid] = running(`sleep ${sleep}`);
        return pid !== undefined && !descendantsOf(run.pid!, processTable()).some((p) => p.pid === pid);
      },
      10_000,
      'the daemon to leave the tree',
    );
    run.stdin!.write('end\n');
    const exit = await run.wait();
    expect(exit.exitCode).toBe(0);
    expect(running(`sleep ${sleep}`)).toEqual([]);
    expect(procmuxCgroups().filter((c) => cgroup.dirs.includes(c.dir))).toEqual([]);
  });

  it('holds pids 64 against 200 forks: the program sees its own fork errors, the peak stays at 64', async () => {
    const cgroup = newCgroup({ limits: { pids: 64 } });
    const forker = [
      'import os',
      'ok = failed = 0',
      'for _ in range(200):',
      '    try:',
      '        if os.fork() == 0:',
      '            os.execv("/bin/sleep", ["sleep", "300"])',
      '        ok += 1',
      '    except OSError as e:',
      '        failed += 1',
      '        last = e.strerror',
      'print(f"started {ok} failed {failed}: {last}", flush=True)',
    ].join('\n');
    const run = await supervisor.spawn({ file: 'python3', args: ['-c', forker], cgroup });
    const exit = await run.wait();
    const [, ok, failed] =
      /started (\d+) failed (\d+): Resource temporarily unavailable/.exec(exit.stdout) ?? [];
    expect(Number(ok)).toBeLessThanOrEqual(63);
    expect(Number(ok) + Number(failed)).toBe(200);
    expect(cgroup.usage().pidsPeak).toBe(64);
    expect(cgroup.members()).toEqual([]);
  });

  it('reports cpu time, peak memory and peak pids, kept after the cgroup is gone', async () => {
    const cgroup = newCgroup();
    const run = await supervisor.spawn({
      file: 'python3',
      args: ['-c', 'x = bytearray(48 * 1024 * 1024)\nn = 0\nfor i in range(3_000_000): n += i'],
      cgroup,
    });
    await run.wait();
    const usage = cgroup.usage();
    expect(usage.cpuMs).toBeGreaterThan(0);
    expect(usage.memoryPeakBytes).toBeGreaterThanOrEqual(48 * 1024 * 1024);
    expect(usage.pidsPeak).toBeGreaterThanOrEqual(1);
    expect(usage.oomKills).toBe(0);
  });

  it('writes nothing outside the host cgroups over a whole session, joins included', async () => {
    const touched: string[] = [];
    const recording: CgroupEffects = {
      ...nodeCgroupEffects,
      mkdir: (dir) => {
        touched.push(dir);
        nodeCgroupEffects.mkdir(dir);
      },
      rmdir: (dir) => {
        touched.push(dir);
        nodeCgroupEffects.rmdir(dir);
      },
      write: (file, value) => {
        touched.push(file);
        nodeCgroupEffects.write(file, value);
      },
    };
    const cgroup = newCgroup({ limits: { pids: 100, memoryBytes: 512 * 1024 * 1024 }, effects: recording });
    touched.push(...cgroup.procsFiles);
    const sleep = tag();
    const run = await supervisor.spawn({ command: `(setsid sleep ${sleep} &); sleep 60`, cgroup });
    await waitFor(() => running(`sleep ${sleep}`).length === 1, 10_000, 'the escapee');
    run.cancel();
    await run.wait();
    const hostDirs = [layout!.unified, ...Object.values(layout!.v1)].filter(
      (d): d is string => d !== undefined,
    );
    const outside = touched.filter(
      (path) => !hostDirs.some((host) => isBeneath(path, host) && path !== host),
    );
    expect(touched.length).toBeGreaterThan(6);
    expect(outside).toEqual([]);
    // And every path is inside one of this session's own directories.
    expect(touched.every((path) => cgroup.dirs.some((dir) => isBeneath(path, dir)))).toBe(true);
  });

  it('refuses a limit this host cannot hold, naming why, and leaves no directory', async () => {
    // Only this session's own: other packages' tests make cgroups beside this one.
    const mine = () => procmuxCgroups().filter((c) => c.hostPid === process.pid && c.dir.endsWith('-nomem'));
    let error: unknown;
    try {
      SessionCgroup.create({
        layout: { unified: layout!.unified, v1: {} },
        id: 'nomem',
        limits: { memoryBytes: 1 << 30 },
      });
    } catch (caught) {
      error = caught;
    }
    // Either v2 has the memory controller here (a pure v2 host): then it is made and closed.
    if (error === undefined) return;
    expect(isProcmuxError(error, 'ERR_PROCESS_UNSUPPORTED')).toBe(true);
    expect((error as Error).message).toMatch(/memoryBytes cannot be enforced: the memory controller/);
    expect(mine()).toEqual([]);
  });

  it('the watchdog path kills and removes a cgroup whose host is gone (killAndRemove)', async () => {
    const sleep = tag();
    const cgroup = newCgroup();
    const run = await supervisor.spawn({
      command: `(setsid sh -c 'exec env -i sleep ${sleep}' &); sleep 60`,
      cgroup,
    });
    await waitFor(() => running(`sleep ${sleep}`).length === 1, 10_000, 'the escapee');
    const { survivors, left } = await killAndRemove(cgroup.plan.membership, cgroup.dirs, nodeCgroupEffects);
    expect({ survivors, left }).toEqual({ survivors: [], left: [] });
    expect(running(`sleep ${sleep}`)).toEqual([]);
    await run.wait();
  });
});
