import {
  assertNoLeakedProcesses,
  leakedCgroups,
  removeCgroup,
  requireTool,
  type TestSshd,
  waitFor,
} from '@procmux/test-utils';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeWorld, openWorld, parentOf, type SshWorld, sleepers, startTestSshd } from './helpers.js';

const skip = requireTool('sshd');

// The escapee of issue 28: a double fork into its own session with an empty environment, so
// neither the process group nor the tree marker finds it. Only a cgroup does.
const ESCAPEE = "(setsid sh -c 'exec env -i sleep 301.4' &); sleep 60";

const escapees = () => sleepers('301.4');

describe.skipIf(skip !== undefined || process.platform !== 'linux')("the remote wrapper's cgroup", () => {
  let sshd: TestSshd;
  let world: SshWorld | undefined;
  beforeAll(async () => {
    sshd = await startTestSshd();
  });
  afterEach(async () => {
    await closeWorld(world);
    world = undefined;
    // A failed run must not leave its escapee to the next test (or the machine).
    const left = escapees();
    for (const pid of left) process.kill(pid, 'SIGKILL');
    const cgroups = leakedCgroups();
    for (const cgroup of cgroups) removeCgroup(cgroup.dir);
    expect({ left, cgroups }).toEqual({ left: [], cgroups: [] });
  });
  afterAll(async () => {
    await sshd?.stop();
    await assertNoLeakedProcesses();
    expect(leakedCgroups()).toEqual([]);
  });

  it('kill() ends an escapee the marker cannot find, and removes the cgroup', async () => {
    world = await openWorld(sshd);
    const s = await world.sessions.start({ shell: true, command: ESCAPEE });
    expect(s.metadata().containment).toBe('cgroup');
    await waitFor(() => escapees().length === 1, 10_000, 'the escapee to be up');
    expect(leakedCgroups()).toHaveLength(1);
    await s.kill();
    expect(escapees()).toEqual([]);
    expect(leakedCgroups()).toEqual([]);
  });

  it('a terminal session (PTY) is held the same way: kill() leaves 0', async () => {
    world = await openWorld(sshd);
    const s = await world.sessions.start({ shell: true, command: ESCAPEE, pty: true });
    expect(s.metadata().containment).toBe('cgroup');
    await waitFor(() => escapees().length === 1, 10_000, 'the escapee to be up');
    await s.kill();
    expect({ left: escapees(), cgroups: leakedCgroups() }).toEqual({ left: [], cgroups: [] });
  });

  it('dispose() ends the escapee of a running session and removes its cgroup', async () => {
    world = await openWorld(sshd);
    await world.sessions.start({ shell: true, command: ESCAPEE });
    await waitFor(() => escapees().length === 1, 10_000, 'the escapee to be up');
    await closeWorld(world);
    world = undefined;
    expect({ left: escapees(), cgroups: leakedCgroups() }).toEqual({ left: [], cgroups: [] });
  });

  it('a program that exits by itself: the monitor removes its empty cgroup', async () => {
    world = await openWorld(sshd);
    const s = await world.sessions.start({ shell: true, command: 'echo hi' });
    expect(s.metadata().containment).toBe('cgroup');
    expect((await s.wait()).exitCode).toBe(0);
    await waitFor(() => leakedCgroups().length === 0, 10_000, 'the monitor to remove the cgroup');
  });

  it("the program's own end: the monitor kills what it left in the cgroup and removes it", async () => {
    world = await openWorld(sshd);
    const s = await world.sessions.start({
      shell: true,
      command: "(setsid sh -c 'exec env -i sleep 301.4' &); sleep 0.5",
    });
    expect(s.metadata().containment).toBe('cgroup');
    await waitFor(() => escapees().length === 1, 10_000, 'the escapee to be up');
    expect((await s.wait()).exitCode).toBe(0);
    await waitFor(
      () => escapees().length === 0 && leakedCgroups().length === 0,
      10_000,
      'the monitor to end the cgroup',
    );
  });

  it('a lost connection (sshd killed) ends the escapee and removes the cgroup', async () => {
    world = await openWorld(sshd);
    const s = await world.sessions.start({ shell: true, command: ESCAPEE });
    expect(s.metadata().containment).toBe('cgroup');
    await waitFor(() => escapees().length === 1, 10_000, 'the escapee to be up');
    process.kill(parentOf(s.pid!), 'SIGKILL');
    await waitFor(() => s.metadata().state === 'unknown', 10_000, 'the session to become unknown');
    // The remote monitor ticks once a second: it sees its sshd gone, kills the cgroup, removes it.
    await waitFor(
      () => escapees().length === 0 && leakedCgroups().length === 0,
      10_000,
      'the monitor to end the cgroup',
    );
  });
});
