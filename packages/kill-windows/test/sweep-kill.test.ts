import { checkLeaksAfterAll } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { killTreeWith } from '../src/kill-tree.js';
import { windowsWorld } from './windows-world.js';

// Creation times in ms; a child is always created after its parent.
const ROOT = { pid: 100, ppid: 50, created: 1_000 };

describe('the sweep after taskkill /T /F (simulated Windows)', () => {
  it('force-kills a child that outlived a root which closed during the grace', async () => {
    const { world, effects } = windowsWorld(
      [
        { ...ROOT, closes: true },
        { pid: 101, ppid: 100, created: 1_010 },
      ],
      { table: 'works' },
    );
    const report = await killTreeWith(100, { graceMs: 3000 }, effects);
    expect(report).toEqual({ signalled: [100, 101], survivors: [] });
    // taskkill /T /F on the root never ran (it was gone): the child was reached by the sweep.
    expect(world.calls).toEqual(['soft 100', 'force 101']);
    expect(effects.isAlive(101)).toBe(false);
  });

  it('reaches a grandchild whose parent died before the forced kill', async () => {
    const { world, effects } = windowsWorld(
      [ROOT, { pid: 101, ppid: 100, created: 1_010 }, { pid: 102, ppid: 101, created: 1_020 }],
      { table: 'works' },
    );
    // The middle process exits on its own while the root is being asked to close.
    world.afterTaskkill = (force) => {
      if (!force) world.processes.find((p) => p.pid === 101)!.alive = false;
    };
    const report = await killTreeWith(100, { graceMs: 500 }, effects);
    expect(report).toEqual({ signalled: [100, 102], survivors: [] });
    expect(world.calls).toEqual(['soft 100', 'force 100', 'force 102']);
  });

  it('leaves strangers alone: a reused pid, and a parent pid older than the root', async () => {
    const { world, effects } = windowsWorld(
      [
        { ...ROOT, closes: true },
        { pid: 101, ppid: 100, created: 1_010, closes: true },
        // Its parent pid says 100, but it was created before the root: another, older 100.
        { pid: 300, ppid: 100, created: 500 },
      ],
      { table: 'works' },
    );
    // After the member 101 is gone, a stranger gets its pid and starts a child of its own.
    world.afterTaskkill = () => {
      world.processes.push({ pid: 101, ppid: 7, created: 5_000, alive: true });
      world.processes.push({ pid: 400, ppid: 101, created: 5_001, alive: true });
      world.afterTaskkill = () => {};
    };
    const report = await killTreeWith(100, { graceMs: 3000 }, effects);
    expect(report).toEqual({ signalled: [100], survivors: [] });
    expect(world.calls).toEqual(['soft 100']);
    expect(effects.isAlive(300) && effects.isAlive(101) && effects.isAlive(400)).toBe(true);
  });

  it('reports a leftover it cannot kill as a survivor', async () => {
    const { effects } = windowsWorld(
      [
        { ...ROOT, closes: true },
        { pid: 101, ppid: 100, created: 1_010, protected: true },
      ],
      { table: 'works' },
    );
    expect(await killTreeWith(100, { graceMs: 3000 }, effects)).toEqual({
      signalled: [100],
      survivors: [101],
    });
  });

  it('without a process table (PowerShell unavailable) speaks for the root only, as before', async () => {
    const { world, effects } = windowsWorld(
      [
        { ...ROOT, closes: true },
        { pid: 101, ppid: 100, created: 1_010 },
      ],
      { table: 'fails' },
    );
    expect(await killTreeWith(100, { graceMs: 3000 }, effects)).toEqual({ signalled: [100], survivors: [] });
    expect(world.calls).toEqual(['soft 100']);
    // The documented gap without the sweep: the child is still running.
    expect(effects.isAlive(101)).toBe(true);
  });

  it('a tree taskkill removed whole costs two table reads and no further taskkill', async () => {
    const { world, effects } = windowsWorld(
      [ROOT, { pid: 101, ppid: 100, created: 1_010 }, { pid: 102, ppid: 101, created: 1_020 }],
      { table: 'works' },
    );
    expect(await killTreeWith(100, { graceMs: 0 }, effects)).toEqual({ signalled: [100], survivors: [] });
    expect(world.calls).toEqual(['force 100']);
    expect(world.tableReads).toBe(2);
  });

  it('a root that is gone before the kill resolves with nothing, without a sweep', async () => {
    const { world, effects } = windowsWorld([{ pid: 101, ppid: 100, created: 1_010 }], { table: 'works' });
    expect(await killTreeWith(100, { graceMs: 0 }, effects)).toEqual({ signalled: [], survivors: [] });
    expect(world.tableReads).toBe(1);
  });
});

checkLeaksAfterAll();
