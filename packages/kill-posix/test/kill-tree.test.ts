import { isProcmuxError } from '@procmux/core-types';
import { checkLeaksAfterAll } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { KILL_SETTLE_MS, killTreeWith } from '../src/kill-tree.js';
import { snapshotTreeWith } from '../src/snapshot.js';
import { FakeWorld, SELF, SELF_PGID } from './fake-world.js';

// A detached root (its own group 100) with two children and a grandchild.
function family(extra: Partial<Record<number, object>> = {}) {
  return new FakeWorld([
    { pid: 100, ppid: SELF, pgid: 100, state: 'S', ...extra[100] },
    { pid: 101, ppid: 100, pgid: 100, state: 'S', ...extra[101] },
    { pid: 102, ppid: 100, pgid: 100, state: 'S', ...extra[102] },
    { pid: 103, ppid: 101, pgid: 100, state: 'S', ...extra[103] },
  ]);
}

describe('the tree kill, on a simulated process table', () => {
  it('SIGTERMs the group and every member, and resolves without SIGKILL when all die', async () => {
    const world = family();
    const report = await killTreeWith(100, { graceMs: 3000 }, world.effects());
    expect(report).toEqual({ signalled: [100, 101, 102, 103], survivors: [] });
    expect(world.log[0]).toBe('0 SIGTERM -100');
    expect(world.signals('SIGKILL')).toEqual([]);
    expect(world.live()).toEqual([]);
  });

  it('SIGTERMs a member of a signalled group once (Linux), and one that left the group by pid', async () => {
    // A TERM handler that ran before a second SIGTERM arrived ran again (a shell trap printed
    // its cleanup twice, under load): each process gets one SIGTERM.
    const terms = new Map<number, number>();
    const count = (_: FakeWorld, self: { pid: number }) =>
      terms.set(self.pid, (terms.get(self.pid) ?? 0) + 1);
    const world = family({
      100: { onTerm: count },
      101: { onTerm: count },
      102: { onTerm: count },
      103: { onTerm: count },
    });
    // 103 moves to a group of its own (setsid) after the first snapshot, before the signals.
    const effects = world.procfsEffects();
    const snapshot = effects.snapshot;
    effects.snapshot = async () => {
      const table = await snapshot();
      if (world.snapshots === 1) world.procs.get(103)!.pgid = 103;
      return table;
    };
    const report = await killTreeWith(100, { graceMs: 1000 }, effects);
    expect(Object.fromEntries(terms)).toEqual({ 100: 1, 101: 1, 102: 1, 103: 1 });
    expect(world.signals('SIGTERM')).toEqual(['0 SIGTERM -100', '0 SIGTERM 103']);
    expect(report.signalled).toEqual([100, 101, 102, 103]);
    // They ignored it: the grace ends in SIGKILL as before.
    expect(world.live()).toEqual([]);
  });

  it('polls until slow dyers are gone, well before the grace ends', async () => {
    const world = family({ 101: { termDelayMs: 40 }, 103: { termDelayMs: 300 } });
    const report = await killTreeWith(100, { graceMs: 10_000 }, world.effects());
    expect(report.survivors).toEqual([]);
    expect(world.signals('SIGKILL')).toEqual([]);
    expect(world.clock).toBeGreaterThanOrEqual(300);
    expect(world.clock).toBeLessThan(300 + 100 + 1);
  });

  it('sees a tree that dies 40 ms after SIGTERM gone within a poll (5 ms) of it', async () => {
    const world = family({
      100: { termDelayMs: 40 },
      101: { termDelayMs: 40 },
      102: { termDelayMs: 40 },
      103: { termDelayMs: 40 },
    });
    const report = await killTreeWith(100, { graceMs: 10_000 }, world.effects());
    expect(report.survivors).toEqual([]);
    expect(world.clock).toBeGreaterThanOrEqual(40);
    expect(world.clock).toBeLessThanOrEqual(45);
  });

  it('polls every 5 ms for the first 100 ms, then doubles the pause up to 100 ms', async () => {
    const world = family({ 101: { termDelayMs: 1000 } });
    // The clock does not start at 0: the pacing counts from the SIGTERM.
    world.clock = 50_000;
    const report = await killTreeWith(100, { graceMs: 10_000 }, world.effects());
    expect(report.survivors).toEqual([]);
    expect(world.slept).toEqual([...Array(20).fill(5), 10, 20, 40, 80, ...Array(8).fill(100)]);
    expect(world.clock).toBe(51_050);
  });

  it('waits at least four times what a poll cost before the next one, at most 100 ms', async () => {
    const world = family({ 101: { termDelayMs: 200 } });
    // Each liveness check costs 3 ms: a poll of 4 processes (12 ms) pauses 48 ms, not 5, in the
    // first 100 ms; past them the doubling (96) is the longer.
    const report = await killTreeWith(
      100,
      { graceMs: 10_000 },
      world.effects({
        kill: (target, signal) => {
          if (signal === 0) world.clock += 3;
          world.kill(target, signal);
        },
      }),
    );
    expect(report.survivors).toEqual([]);
    expect(world.slept[0]).toBe(5);
    expect(world.slept.slice(1, 4)).toEqual([48, 48, 96]);
  });

  it('caps the pause at 100 ms however costly a poll was', async () => {
    const world = family({ 101: { termDelayMs: 500 } });
    const report = await killTreeWith(
      100,
      { graceMs: 10_000 },
      world.effects({
        kill: (target, signal) => {
          if (signal === 0) world.clock += 40;
          world.kill(target, signal);
        },
      }),
    );
    expect(report.survivors).toEqual([]);
    expect(world.slept.slice(1)).toEqual(world.slept.slice(1).map(() => 100));
  });

  it('polls a tree whose checks are slow no more than a fifth of the time', async () => {
    const world = family({ 101: { termDelayMs: 300 }, 102: { termDelayMs: 300 }, 103: { termDelayMs: 300 } });
    // Each liveness check (kill(pid, 0)) costs 3 ms of the clock: a poll of 4 processes, 12 ms.
    let checks = 0;
    const report = await killTreeWith(
      100,
      { graceMs: 10_000 },
      world.effects({
        kill: (target, signal) => {
          if (signal === 0) {
            checks += 1;
            world.clock += 3;
          }
          world.kill(target, signal);
        },
      }),
    );
    expect(report.survivors).toEqual([]);
    expect(world.clock).toBeGreaterThanOrEqual(300);
    expect(checks * 3).toBeLessThanOrEqual(world.clock / 5 + 12);
  });

  it('SIGKILLs what ignores SIGTERM once the grace is over, not before', async () => {
    const world = family({ 102: { onTerm: 'ignore' } });
    const report = await killTreeWith(100, { graceMs: 1500 }, world.effects());
    expect(report).toEqual({ signalled: [100, 101, 102, 103], survivors: [] });
    expect(world.signals('SIGKILL')).toEqual(['1500 SIGKILL -100', '1500 SIGKILL 102']);
    // Gone at once: no settle wait.
    expect(world.clock).toBe(1500);
  });

  it('graceMs 0 sends SIGKILL at once and never SIGTERM', async () => {
    const world = family({ 102: { onTerm: 'ignore' } });
    const report = await killTreeWith(100, { graceMs: 0 }, world.effects());
    expect(report).toEqual({ signalled: [100, 101, 102, 103], survivors: [] });
    expect(world.signals('SIGTERM')).toEqual([]);
    expect(world.signals('SIGKILL')[0]).toBe('0 SIGKILL -100');
  });

  it('waits at most 60 s, and refuses a longer grace before signalling', async () => {
    const world = family({ 100: { onTerm: 'ignore' } });
    await killTreeWith(100, { graceMs: 60_000 }, world.effects());
    expect(world.signals('SIGKILL')).toEqual(['60000 SIGKILL -100', '60000 SIGKILL 100']);
    const refused = family({ 100: { onTerm: 'ignore' } });
    const error = await killTreeWith(100, { graceMs: 1e9 }, refused.effects()).catch((e: unknown) => e);
    expect(isProcmuxError(error, 'ERR_INVALID_OPTION')).toBe(true);
    expect(refused.log).toEqual([]);
  });

  it('resolves with nothing signalled for a pid that is gone', async () => {
    const world = family();
    expect(await killTreeWith(4242, {}, world.effects())).toEqual({ signalled: [], survivors: [] });
    expect(world.log).toEqual([]);
  });

  it('SIGTERMs a child forked while the tree was dying, and waits for it too', async () => {
    const world = family({
      101: {
        onTerm: (w: FakeWorld, self: { pid: number }) => {
          w.die(w.procs.get(self.pid)!);
          w.add({ pid: 150, ppid: 1, pgid: 100, state: 'S', termDelayMs: 20 });
        },
      },
    });
    const report = await killTreeWith(100, { graceMs: 3000 }, world.effects());
    expect(report).toEqual({ signalled: [100, 101, 102, 103, 150], survivors: [] });
    expect(world.log).toContain('0 SIGTERM 150');
    expect(world.signals('SIGKILL')).toEqual([]);
  });

  it('after SIGKILL, snapshots again and kills a child forked in the meantime', async () => {
    const world = family({ 101: { onTerm: 'ignore' } });
    // 101 forks into a new group right between our SIGKILL snapshot and the signal.
    world.onSnapshot = (w, n) => {
      if (n === 2) w.add({ pid: 160, ppid: 101, pgid: 160, state: 'S', onTerm: 'ignore' });
    };
    const report = await killTreeWith(100, { graceMs: 1000 }, world.effects());
    expect(report).toEqual({ signalled: [100, 101, 102, 103, 160], survivors: [] });
    expect(world.signals('SIGKILL')).toEqual(
      expect.arrayContaining(['1000 SIGKILL 160', '1000 SIGKILL -160']),
    );
  });

  it('does not signal a child that is already a zombie when it appears during the grace', async () => {
    const world = family({
      101: {
        onTerm: (w: FakeWorld, self: { pid: number }) => {
          w.die(w.procs.get(self.pid)!);
          w.add({ pid: 150, ppid: 1, pgid: 100, state: 'Z' });
        },
      },
    });
    const report = await killTreeWith(100, { graceMs: 3000 }, world.effects());
    expect(report).toEqual({ signalled: [100, 101, 102, 103], survivors: [] });
    expect(world.log.some((line) => line.endsWith(' 150'))).toBe(false);
  });

  it('lists a lower pid forked during the grace first', async () => {
    const world = family({
      101: {
        onTerm: (w: FakeWorld, self: { pid: number }) => {
          w.die(w.procs.get(self.pid)!);
          w.add({ pid: 50, ppid: 1, pgid: 100, state: 'S' });
        },
      },
    });
    const report = await killTreeWith(100, { graceMs: 3000 }, world.effects());
    expect(report).toEqual({ signalled: [50, 100, 101, 102, 103], survivors: [] });
  });

  it('SIGKILLs a child forked after the first round even when an older member will not die', async () => {
    const world = family({ 103: { onTerm: 'ignore', unkillable: true } });
    world.onSnapshot = (w, n) => {
      if (n === 2) w.add({ pid: 500, ppid: 103, pgid: 100, state: 'S', onTerm: 'ignore' });
    };
    const report = await killTreeWith(100, { graceMs: 0 }, world.effects());
    expect(report).toEqual({ signalled: [100, 101, 102, 103, 500], survivors: [103] });
    expect(world.signals('SIGKILL')).toContain('0 SIGKILL 500');
  });

  it('signals no group when our own process is missing from the table', async () => {
    const world = family();
    world.procs.delete(SELF);
    const report = await killTreeWith(100, { graceMs: 0 }, world.effects());
    expect(report.signalled).toEqual([100, 101, 102, 103]);
    expect(world.log.some((line) => line.includes(' -'))).toBe(false);
  });

  it("never signals the group of a root that leads our own (we run inside the root's group)", async () => {
    const world = family();
    world.procs.get(SELF)!.pgid = 100;
    const report = await killTreeWith(100, { graceMs: 0 }, world.effects());
    expect(report.signalled).toEqual([100, 101, 102, 103]);
    expect(world.log.some((line) => line.includes(' -'))).toBe(false);
  });

  it('reports signalled pids and survivors in ascending order, whatever order the table holds', async () => {
    const world = new FakeWorld([
      { pid: 300, ppid: SELF, pgid: 300, state: 'S' },
      { pid: 320, ppid: 300, pgid: 300, state: 'S', unkillable: true, onTerm: 'ignore' },
      { pid: 305, ppid: 300, pgid: 300, state: 'S' },
      { pid: 310, ppid: 300, pgid: 300, state: 'S', unkillable: true, onTerm: 'ignore' },
      { pid: 302, ppid: 300, pgid: 300, state: 'S' },
    ]);
    const report = await killTreeWith(300, { graceMs: 100 }, world.effects());
    expect(report).toEqual({ signalled: [300, 302, 305, 310, 320], survivors: [310, 320] });
  });

  it('reports what it may not signal as a survivor, and never signals our own group', async () => {
    const world = new FakeWorld([
      { pid: 100, ppid: SELF, pgid: SELF_PGID, state: 'S' },
      { pid: 101, ppid: 100, pgid: SELF_PGID, state: 'S', foreign: true },
    ]);
    const report = await killTreeWith(100, { graceMs: 500 }, world.effects());
    expect(report).toEqual({ signalled: [100], survivors: [101] });
    expect(world.log.some((line) => line.endsWith(` -${SELF_PGID}`))).toBe(false);
  });

  it('counts a process SIGKILL cannot end as a survivor after a bounded wait', async () => {
    const world = family({ 103: { onTerm: 'ignore', unkillable: true } });
    const report = await killTreeWith(100, { graceMs: 100 }, world.effects());
    expect(report).toEqual({ signalled: [100, 101, 102, 103], survivors: [103] });
    expect(world.clock).toBeGreaterThanOrEqual(100 + KILL_SETTLE_MS);
    // One SIGKILL round, then a second snapshot finds nothing new: no further rounds.
    expect(world.signals('SIGKILL')).toEqual(['100 SIGKILL -100', '100 SIGKILL 103']);
  });

  it('gives SIGKILLed processes exactly 2 s to vanish, polling as during the grace', async () => {
    const world = family({ 103: { onTerm: 'ignore', unkillable: true } });
    const report = await killTreeWith(100, { graceMs: 100 }, world.effects());
    expect(report.survivors).toEqual([103]);
    // The grace: 20 polls of 5 ms. The settle: the same pacing, its last pause cut at 2 s.
    const settle = world.slept.slice(20);
    expect(settle).toEqual([...Array(20).fill(5), 10, 20, 40, 80, ...Array(17).fill(100), 50]);
    expect(world.clock).toBe(100 + KILL_SETTLE_MS);
  });

  it('chases a tree that forks at every snapshot for 5 SIGKILL rounds, then ends', async () => {
    const world = family({ 100: { onTerm: 'ignore' } });
    let next = 500;
    world.onSnapshot = (w, n) => {
      if (n > 1) w.add({ pid: next++, ppid: 100, pgid: 100, state: 'S' });
    };
    const report = await killTreeWith(100, { graceMs: 0 }, world.effects());
    // Rounds 2 to 5 each find the child forked since; the one forked after the last is not chased.
    expect(report.signalled).toEqual([100, 101, 102, 103, 500, 501, 502, 503]);
    expect(world.live()).toEqual([504]);
    world.kill(504, 'SIGKILL');
  });

  it('with no grace, SIGKILLs what will not die once, and a second snapshot ends the rounds', async () => {
    const world = family({ 103: { unkillable: true } });
    const report = await killTreeWith(100, { graceMs: 0 }, world.effects());
    expect(report).toEqual({ signalled: [100, 101, 102, 103], survivors: [103] });
    // The group, then each member (the group's signal already ended all but 103), once.
    expect(world.signals('SIGKILL')).toEqual(
      ['-100', '100', '101', '102', '103'].map((t) => `0 SIGKILL ${t}`),
    );
  });

  it('lists several survivors in pid order', async () => {
    const world = family({
      103: { onTerm: 'ignore', unkillable: true },
      101: { onTerm: 'ignore', unkillable: true },
    });
    const report = await killTreeWith(100, { graceMs: 100 }, world.effects());
    expect(report.survivors).toEqual([101, 103]);
  });

  it('does not count a SIGKILLed zombie as a survivor where liveness is only kill(pid, 0)', async () => {
    const world = family({ 103: { onTerm: 'ignore', unreaped: true } });
    const report = await killTreeWith(100, { graceMs: 100 }, world.effects());
    expect(report.survivors).toEqual([]);
  });

  it('does not wait for a root that is already a zombie where liveness is only kill(pid, 0)', async () => {
    const world = family({ 100: { unreaped: true, state: 'Z' } });
    const report = await killTreeWith(100, { graceMs: 60_000 }, world.effects());
    expect(report).toEqual({ signalled: [101, 102, 103], survivors: [] });
    expect(world.signals('SIGKILL')).toEqual([]);
    expect(world.clock).toBeLessThan(1000);
  });

  it('a group SIGKILL counts for a member that died before its own signal', async () => {
    const world = family();
    // The group signal ends every member; the per-pid signals then find nothing.
    const report = await killTreeWith(100, { graceMs: 0 }, world.effects());
    expect(report.signalled).toEqual([100, 101, 102, 103]);
  });

  it('never signals pid 1 or ourselves, whatever the table says', async () => {
    const world = family();
    world.procs.get(1)!.pgid = 100;
    world.procs.get(SELF)!.ppid = 101;
    const report = await killTreeWith(100, { graceMs: 0 }, world.effects());
    expect(report.signalled).not.toContain(1);
    expect(report.signalled).not.toContain(SELF);
    expect(world.log.some((line) => / (1|1000)$/.test(line))).toBe(false);
  });

  it.each([
    ['a pid that is not a positive integer', 0, {}],
    ['init', 1, {}],
    ['ourselves', SELF, {}],
    ['a NaN grace', 100, { graceMs: Number.NaN }],
    ['a string grace', 100, { graceMs: '10' }],
    ['an empty marker', 100, { marker: '' }],
    ['options that are not an object', 100, 5],
  ])('refuses %s with ERR_INVALID_OPTION before signalling', async (_what, pid, options) => {
    const world = family();
    const error = await killTreeWith(pid, options, world.effects()).catch((e: unknown) => e);
    expect(isProcmuxError(error, 'ERR_INVALID_OPTION')).toBe(true);
    expect(world.log).toEqual([]);
  });
});

describe('the tree marker, on a simulated /proc', () => {
  it('SIGTERMs a marked setsid escapee reparented to init', async () => {
    const world = family({ 100: { marker: 'm1' }, 101: { marker: 'm1' } });
    world.add({ pid: 200, ppid: 1, pgid: 200, state: 'S', marker: 'm1' });
    world.add({ pid: 300, ppid: 1, pgid: 300, state: 'S', marker: 'other' });
    const report = await killTreeWith(100, { graceMs: 1000 }, world.procfsEffects());
    expect(report).toEqual({ signalled: [100, 101, 102, 103, 200], survivors: [] });
    expect(world.log).toContain('0 SIGTERM 200');
    expect(world.live()).toEqual([300]);
  });

  it('ignores the marker when it is our own (our siblings carry it too)', async () => {
    const world = family({ 100: { marker: 'ours' } });
    world.add({ pid: 300, ppid: 1, pgid: 300, state: 'S', marker: 'ours' });
    const report = await killTreeWith(100, { graceMs: 1000 }, world.procfsEffects('ours'));
    expect(report.signalled).toEqual([100, 101, 102, 103]);
    expect(world.live()).toEqual([300]);
  });

  it('finds the escapees of a root that exited through its surviving group, or an explicit marker', async () => {
    const world = new FakeWorld([
      { pid: 101, ppid: 1, pgid: 100, state: 'S', marker: 'm1' },
      { pid: 200, ppid: 1, pgid: 200, state: 'S', marker: 'm1' },
      { pid: 300, ppid: 1, pgid: 300, state: 'S', marker: 'm2' },
    ]);
    expect(await killTreeWith(100, { graceMs: 1000 }, world.procfsEffects())).toEqual({
      signalled: [101, 200],
      survivors: [],
    });
    expect(await killTreeWith(100, { graceMs: 1000, marker: 'm2' }, world.procfsEffects())).toEqual({
      signalled: [300],
      survivors: [],
    });
  });

  it('SIGKILLs a marked escapee forked during the grace by a TERM-ignoring member', async () => {
    const world = family({ 100: { marker: 'm1' }, 102: { marker: 'm1', onTerm: 'ignore' } });
    world.after(200, () =>
      world.add({ pid: 210, ppid: 1, pgid: 210, state: 'S', marker: 'm1', onTerm: 'ignore' }),
    );
    const report = await killTreeWith(100, { graceMs: 1000 }, world.procfsEffects());
    expect(report).toEqual({ signalled: [100, 101, 102, 103, 210], survivors: [] });
    expect(world.signals('SIGKILL')).toContain('1000 SIGKILL 210');
    expect(world.live()).toEqual([]);
  });

  it("SIGTERMs, then SIGKILLs, a new process that took a member's pid during the grace", async () => {
    const world = family({
      101: {
        onTerm: (w: FakeWorld, self: { pid: number }) => {
          w.die(w.procs.get(self.pid)!);
          w.add({ pid: 101, ppid: 1, pgid: 100, state: 'S', startTime: 9_999, onTerm: 'ignore' });
        },
      },
    });
    const report = await killTreeWith(100, { graceMs: 1000 }, world.procfsEffects());
    expect(report).toEqual({ signalled: [100, 101, 102, 103], survivors: [] });
    expect(world.signals('SIGKILL')).toContain('1000 SIGKILL 101');
    expect(world.live()).toEqual([]);
  });

  it('SIGKILLs a new process that took the pid of a SIGKILLed one between rounds', async () => {
    const world = family({ 101: { onTerm: 'ignore' } });
    world.onSnapshot = (w, n) => {
      if (n === 2) w.add({ pid: 101, ppid: 1, pgid: 100, state: 'S', startTime: 9_999, onTerm: 'ignore' });
    };
    const report = await killTreeWith(100, { graceMs: 0 }, world.procfsEffects());
    expect(report.survivors).toEqual([]);
    expect(world.signals('SIGKILL').filter((line) => line.endsWith(' 101'))).toHaveLength(2);
    expect(world.live()).toEqual([]);
  });

  it('treats a zombie as gone without waiting for the grace', async () => {
    const world = family({ 100: { unreaped: true } });
    const report = await killTreeWith(100, { graceMs: 60_000 }, world.procfsEffects());
    expect(report.survivors).toEqual([]);
    expect(world.clock).toBeLessThan(1000);
    expect(world.procs.get(100)?.state).toBe('Z');
  });
});

describe('the tree snapshot, on a simulated /proc', () => {
  it('lists the live tree a kill would signal, markers and an explicit marker included, signalling nothing', async () => {
    const world = family({ 100: { marker: 'm1' }, 103: { unreaped: true } });
    world.procs.get(103)!.state = 'Z';
    world.add({ pid: 200, ppid: 1, pgid: 200, state: 'S', marker: 'm1' });
    world.add({ pid: 300, ppid: 1, pgid: 300, state: 'S', marker: 'm2' });
    const pids = async (options: unknown) =>
      (await snapshotTreeWith(100, options, world.procfsEffects())).map((entry) => entry.pid);
    expect(await pids({})).toEqual([100, 101, 102, 200]);
    expect(await pids({ marker: 'm2' })).toEqual([100, 101, 102, 200, 300]);
    expect(await pids(undefined)).toEqual([100, 101, 102, 200]);
    expect(world.log).toEqual([]);
  });

  it('is empty for a pid that is gone, and refuses what a kill refuses', async () => {
    const world = family();
    expect(await snapshotTreeWith(4242, {}, world.effects())).toEqual([]);
    for (const [pid, options] of [
      [1, {}],
      [100, { marker: '' }],
      [100, 'x'],
    ] as const) {
      const error = await snapshotTreeWith(pid, options, world.effects()).catch((e: unknown) => e);
      expect(isProcmuxError(error, 'ERR_INVALID_OPTION')).toBe(true);
    }
    expect(world.snapshots).toBe(1);
  });
});

checkLeaksAfterAll();
