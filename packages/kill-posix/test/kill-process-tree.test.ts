import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTreeMarker, isProcmuxError } from '@procmux/core-types';
import { checkLeaksAfterAll, isAlive, trackPid, waitFor } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { killProcessTree, snapshotProcessTree } from '../src/index.js';
import { ignoresTerm, liveWithMarker, spawnTree, stateOf, statOf, waitForValue } from './helpers.js';

const linux = process.platform === 'linux';
const notLinux = 'these tests read /proc and need Linux';

// 12 sleeps, two nested subshells with 2 sleeps each, a setsid escapee, an escapee whose
// parent exits at once, and a process that ignores SIGTERM: 22 processes with the marker.
const BIG_TREE = `
  for i in $(seq 1 12); do sleep 1000 & done
  ( sleep 1000 & sleep 1000 & ( sleep 1000 & sleep 1000 & wait ) & wait ) &
  setsid sleep 1000 & echo "setsid $!"
  bash -c 'setsid sleep 1000 & echo "orphan $!"; exit 0'
  bash -c "trap '' TERM; exec sleep 1000" & echo "ignorer $!"
  echo ready
  wait
`;

describe.skipIf(!linux)(`killProcessTree on real processes (${notLinux})`, () => {
  it('kills a 20+ process tree, setsid escapees and an orphan included; SIGKILLs the TERM-ignorer after the grace', async () => {
    const tree = await spawnTree(BIG_TREE);
    const setsid = tree.pids.get('setsid')!;
    const orphan = tree.pids.get('orphan')!;
    const ignorer = tree.pids.get('ignorer')!;
    const members = await waitForValue(
      () => {
        const live = liveWithMarker(tree.marker);
        const started =
          live.length >= 22 &&
          statOf(setsid).sid === setsid &&
          statOf(orphan).sid === orphan &&
          !live.includes(statOf(orphan).ppid) &&
          ignoresTerm(ignorer);
        return started ? live : undefined;
      },
      10_000,
      'the whole tree to start',
    );
    // The escapees really left: their own sessions, and the orphan's parent is gone.
    expect(statOf(setsid).pgid).not.toBe(tree.root);
    expect(statOf(orphan).pgid).not.toBe(tree.root);
    expect(members).not.toContain(statOf(orphan).ppid);

    let settled = false;
    // A grace of seconds: the checks below must fall inside it however loaded the machine is.
    const killing = killProcessTree(tree.root, { graceMs: 5_000 }).finally(() => {
      settled = true;
    });
    // SIGTERM reaches the escapees at once; the ignorer lives on through the grace.
    await waitFor(() => !isAlive(setsid) && !isAlive(orphan) && !isAlive(tree.root), 4_000, 'SIGTERM');
    expect(isAlive(ignorer)).toBe(true);
    expect(settled).toBe(false);

    const report = await killing;
    expect(report.survivors).toEqual([]);
    expect(report.signalled).toEqual(expect.arrayContaining(members));
    for (const pid of members) expect(isAlive(pid)).toBe(false);
    expect(liveWithMarker(tree.marker)).toEqual([]);
    expect(await tree.exit).toEqual({ code: null, signal: 'SIGTERM' });
  });

  it('resolves with nothing signalled for a pid that is already gone', async () => {
    const child = spawn('true');
    trackPid(child.pid);
    await new Promise((resolve) => child.on('exit', resolve));
    expect(await killProcessTree(child.pid!)).toEqual({ signalled: [], survivors: [] });
    expect(await snapshotProcessTree(child.pid!)).toEqual([]);
  });

  it('graceMs 0 kills a TERM-ignoring process at once with SIGKILL', async () => {
    const tree = await spawnTree(`trap '' TERM; echo ready; while :; do sleep 0.05; done`);
    const report = await killProcessTree(tree.root, { graceMs: 0 });
    expect(report.signalled).toContain(tree.root);
    expect(report.survivors).toEqual([]);
    expect(await tree.exit).toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('graceMs 0 never sends SIGTERM first; a grace lets the same program exit cleanly', async () => {
    const script = `trap 'exit 7' TERM; echo ready; while :; do sleep 0.05; done`;
    const forced = await spawnTree(script);
    await killProcessTree(forced.root, { graceMs: 0 });
    expect(await forced.exit).toEqual({ code: null, signal: 'SIGKILL' });

    const graceful = await spawnTree(script);
    const report = await killProcessTree(graceful.root, { graceMs: 10_000 });
    expect(report.survivors).toEqual([]);
    expect(await graceful.exit).toEqual({ code: 7, signal: null });
  });

  it('a negative graceMs is refused, not clamped, and signals nothing', async () => {
    const tree = await spawnTree(`trap 'exit 7' TERM; echo ready; while :; do sleep 0.05; done`);
    const error = await killProcessTree(tree.root, { graceMs: -50 }).catch((e: unknown) => e);
    expect(isProcmuxError(error, 'ERR_INVALID_OPTION')).toBe(true);
    expect(isAlive(tree.root)).toBe(true);
    await killProcessTree(tree.root, { graceMs: 0 });
    expect(await tree.exit).toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('kills the leftover process group of a leader that already exited', async () => {
    const tree = await spawnTree(`sleep 1000 & echo "sleeper $!"; echo ready`);
    await tree.exit;
    const sleeper = tree.pids.get('sleeper')!;
    expect(isAlive(tree.root)).toBe(false);
    expect(statOf(sleeper).pgid).toBe(tree.root);

    const report = await killProcessTree(tree.root);
    expect(report).toEqual({ signalled: [sleeper], survivors: [] });
    expect(isAlive(sleeper)).toBe(false);
  });

  it('reaches the setsid escapee of a root that already exited when given its marker', async () => {
    const tree = await spawnTree(`setsid sleep 1000 & echo "escapee $!"; echo ready`);
    await tree.exit;
    const escapee = tree.pids.get('escapee')!;
    await waitFor(() => statOf(escapee).sid === escapee, 10_000, 'setsid');
    // Nothing of the root is left to find it by: not its pid, not its group.
    expect(await killProcessTree(tree.root)).toEqual({ signalled: [], survivors: [] });
    expect(isAlive(escapee)).toBe(true);

    const report = await killProcessTree(tree.root, { marker: tree.marker });
    expect(report).toEqual({ signalled: [escapee], survivors: [] });
    expect(isAlive(escapee)).toBe(false);
  });

  it('SIGKILLs a setsid escapee forked during the grace after its fork parent exited', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kill-posix-'));
    const flag = join(dir, 'fork-now');
    try {
      const tree = await spawnTree(
        `bash -c 'trap "" TERM
           while [ ! -e "$FLAG" ]; do sleep 0.05; done
           ( setsid sleep 1000 & echo "late $!" )
           exec sleep 1000' & echo "ignorer $!"
         echo ready
         wait`,
        { env: { ...process.env, FLAG: flag } },
      );
      const ignorer = tree.pids.get('ignorer')!;
      await waitFor(() => ignoresTerm(ignorer), 10_000, 'the trap');
      const killing = killProcessTree(tree.root, { graceMs: 3000 });
      await waitFor(() => !isAlive(tree.root), 10_000, 'the root to take SIGTERM');
      writeFileSync(flag, '');
      const late = await waitForValue(() => tree.pids.get('late'), 10_000, 'the late fork');
      await waitFor(() => statOf(late).sid === late, 10_000, 'setsid');
      expect(isAlive(ignorer)).toBe(true);

      const report = await killing;
      expect(report.survivors).toEqual([]);
      expect(report.signalled).toEqual(expect.arrayContaining([tree.root, ignorer, late]));
      expect(isAlive(late)).toBe(false);
      expect(isAlive(ignorer)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('treats a zombie as gone: resolves while the dead root is still unreaped', async () => {
    // A parent outside the tree (no marker) that never reaps its child, so the root stays
    // a zombie; the root gets a marker of its own.
    const parent = await spawnTree(
      [
        'python3',
        '-c',
        `import os, time
pid = os.fork()
if pid == 0:
    os.setsid()
    os.execvpe('sleep', ['sleep', '1000'], dict(os.environ, PROCMUX_TREE=os.environ['ROOT_MARKER']))
print('root', pid, flush=True)
print('ready', flush=True)
time.sleep(1000)`,
      ],
      { detached: false, marker: false, env: { ...process.env, ROOT_MARKER: createTreeMarker() } },
    );
    const root = parent.pids.get('root')!;
    await waitFor(() => statOf(root).sid === root, 10_000, 'setsid');
    // A grace longer than the test's timeout: only treating the zombie as gone can pass.
    const report = await killProcessTree(root, { graceMs: 60_000 });
    expect(report).toEqual({ signalled: [root], survivors: [] });
    expect(stateOf(root)).toBe('Z');
    parent.child.kill('SIGKILL');
    await parent.exit;
  }, 30_000);

  it('kills a child that shares our process group without signalling the group', async () => {
    const tree = await spawnTree(`sleep 1000 & echo "sleeper $!"; echo ready; wait`, { detached: false });
    const sleeper = tree.pids.get('sleeper')!;
    expect(statOf(tree.root).pgid).toBe(statOf(process.pid).pgid);
    const report = await killProcessTree(tree.root, { graceMs: 5000 });
    // Had our group been signalled, this test worker would be dead.
    expect(report).toEqual({ signalled: [tree.root, sleeper].sort((a, b) => a - b), survivors: [] });
    expect(isAlive(sleeper)).toBe(false);
    expect(await tree.exit).toEqual({ code: null, signal: 'SIGTERM' });
  });

  it('snapshotProcessTree lists the escapees with the rest of the tree', async () => {
    const tree = await spawnTree(BIG_TREE);
    const members = await waitForValue(
      () => {
        const live = liveWithMarker(tree.marker);
        const orphan = tree.pids.get('orphan')!;
        return live.length >= 22 && statOf(orphan).sid === orphan ? live : undefined;
      },
      10_000,
      'the whole tree to start',
    );
    const snapshot = await snapshotProcessTree(tree.root);
    expect(snapshot.map((p) => p.pid)).toEqual(members);
    expect(snapshot.every((p) => p.marker === tree.marker)).toBe(true);
    expect(snapshot.find((p) => p.pid === tree.pids.get('orphan'))?.pgid).not.toBe(tree.root);
    await killProcessTree(tree.root, { graceMs: 0 });
    expect(liveWithMarker(tree.marker)).toEqual([]);
  });

  it.each([0, -1, 1.5, Number.NaN, '42', 1, process.pid])(
    'refuses pid %s with ERR_INVALID_OPTION',
    async (pid) => {
      const error = await killProcessTree(pid as number).catch((e: unknown) => e);
      expect(isProcmuxError(error, 'ERR_INVALID_OPTION')).toBe(true);
      expect((error as Error).message).toMatch(/^pid must/);
    },
  );

  it.each([Number.NaN, '100', null, true])('refuses graceMs %s with ERR_INVALID_OPTION', async (graceMs) => {
    const tree = await spawnTree(`echo ready; exec sleep 1000`);
    const error = await killProcessTree(tree.root, { graceMs: graceMs as number }).catch((e: unknown) => e);
    expect(isProcmuxError(error, 'ERR_INVALID_OPTION')).toBe(true);
    expect((error as Error).message).toMatch(/^graceMs must be an integer from 0 to 60000/);
    // A refused call signals nothing.
    expect(isAlive(tree.root)).toBe(true);
    await killProcessTree(tree.root, { graceMs: 0 });
  });
});

checkLeaksAfterAll();
