// A remote tmux pane held as a local one is (issue 28 item 2, issue 34): a cgroup of its own
// beneath the remote shell's, killed with the pane, removed when the session ends, and used by
// a host that adopts the pane. The "remote" is a real sshd on loopback; the escapee of issue 28
// (a double fork into its own session with an empty environment) is what only a cgroup finds.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryRecoveryStores } from '@procmux/sessions';
import {
  assertNoLeakedProcesses,
  leakedCgroups,
  removeCgroup,
  requireTool,
  type TestSshd,
  waitFor,
} from '@procmux/test-utils';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  closeTmuxHost,
  openTmuxHost,
  settleSurvivors,
  sleepers,
  startTestSshd,
  type TmuxHost,
} from './helpers.js';

const skip = requireTool('sshd') ?? requireTool('tmux');
const SLEEP = '301.6';
const ESCAPEE = `(setsid sh -c 'exec env -i sleep ${SLEEP}' &); sleep 60`;

const escapees = () => sleepers(SLEEP);

describe.skipIf(skip !== undefined || process.platform !== 'linux')("a remote tmux pane's cgroup", () => {
  let sshd: TestSshd;
  const stores = createMemoryRecoveryStores();
  let dir: string;
  const hosts: TmuxHost[] = [];

  const openHost = async (ownerId: string): Promise<TmuxHost> => {
    const host = await openTmuxHost(sshd, `${dir}/tmux`, { ownerId, stores, leaseTtlMs: 1_000 });
    hosts.push(host);
    return host;
  };
  // A host that goes as a crashed one does: nothing of its sessions is ended, its connection closes.
  const letGo = async (host: TmuxHost) => {
    await host.sessions.dispose();
    await host.tmux.dispose();
    host.world.backend.close();
  };

  beforeAll(async () => {
    sshd = await startTestSshd();
  });
  afterEach(async () => {
    for (const host of hosts.splice(0)) await closeTmuxHost(host);
    // A failed run must not leave its panes, escapee or cgroup to the next test (or the machine).
    spawnSync('tmux', ['-S', `${dir}/tmux/tmux.sock`, 'kill-server'], { stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
    const left = escapees();
    for (const pid of left) process.kill(pid, 'SIGKILL');
    const cgroups = leakedCgroups();
    for (const cgroup of cgroups) removeCgroup(cgroup.dir);
    expect({ left, cgroups }).toEqual({ left: [], cgroups: [] });
  });
  afterAll(async () => {
    await sshd?.stop();
    expect(await settleSurvivors()).toEqual([]);
    await assertNoLeakedProcesses();
    expect(leakedCgroups()).toEqual([]);
  });

  it('kill() ends an escapee the marker cannot find, and removes the cgroup', async () => {
    dir = mkdtempSync(join(tmpdir(), 'pm-rcg-'));
    const a = await openHost('host-a');
    const s = await a.sessions.start({ shell: true, command: ESCAPEE, pty: true, lifetime: 'detached' });
    expect(s.metadata().containment).toBe('cgroup');
    await waitFor(() => escapees().length === 1, 10_000, 'the escapee to be up');
    const made = leakedCgroups();
    expect(made.map((c) => c.dir)).toEqual([expect.stringMatching(/\/procmux-\d+-pm-[0-9a-f]{12}$/)]);
    expect(readFileSync(`${made[0]!.dir}/cgroup.procs`, 'utf8')).toContain(`${escapees()[0]}\n`);
    await s.kill();
    expect(escapees()).toEqual([]);
    expect(leakedCgroups()).toEqual([]);
    await s.wait({ timeoutMs: 15_000 });
  });

  it("the pane's own end, with its host attached: what it left in the cgroup ends, the cgroup is removed", async () => {
    dir = mkdtempSync(join(tmpdir(), 'pm-rcg-'));
    const a = await openHost('host-a');
    const s = await a.sessions.start({
      shell: true,
      command: `(setsid sh -c 'exec env -i sleep ${SLEEP}' &); read -r x; exit 3`,
      pty: true,
      lifetime: 'detached',
    });
    await waitFor(() => escapees().length === 1, 10_000, 'the escapee to be up');
    await s.input('go\r');
    expect(await s.wait({ timeoutMs: 15_000 })).toMatchObject({ exitCode: 3 });
    await waitFor(
      () => escapees().length === 0 && leakedCgroups().length === 0,
      10_000,
      'the escapee and the cgroup to be gone',
    );
  });

  it("the pane's own end with no host attached: the pane-died hook ends the escapee and removes the cgroup", async () => {
    dir = mkdtempSync(join(tmpdir(), 'pm-rcg-'));
    const a = await openHost('host-a');
    // It ends once told through a file, after its host let go: nothing but tmux there sees the end.
    const s = await a.sessions.start({
      shell: true,
      command: `(setsid sh -c 'exec env -i sleep ${SLEEP}' &); until [ -e ${dir}/go ]; do sleep 0.05; done; exit 3`,
      pty: true,
      lifetime: 'detached',
    });
    expect(s.metadata().containment).toBe('cgroup');
    await waitFor(() => escapees().length === 1, 10_000, 'the escapee to be up');
    await letGo(a);
    writeFileSync(`${dir}/go`, '');
    await waitFor(
      () => escapees().length === 0 && leakedCgroups().length === 0,
      15_000,
      'the pane-died hook to end the escapee and remove the cgroup',
    );
    const b = await openHost('host-b');
    await waitFor(
      async () => {
        await b.sessions.recover();
        return b.sessions.list().find((x) => x.id === s.id)?.state === 'exited';
      },
      15_000,
      'host B to find the session ended',
    );
    expect(b.sessions.get(s.id).metadata().exitCode).toBe(3);
  });

  it('a host that adopts the pane uses its cgroup: kill() through it leaves 0', async () => {
    dir = mkdtempSync(join(tmpdir(), 'pm-rcg-'));
    const a = await openHost('host-a');
    const s = await a.sessions.start({ shell: true, command: ESCAPEE, pty: true, lifetime: 'detached' });
    expect(s.metadata().containment).toBe('cgroup');
    await waitFor(() => escapees().length === 1, 10_000, 'the escapee to be up');
    await letGo(a);
    const b = await openHost('host-b');
    await waitFor(
      async () => {
        await b.sessions.recover();
        return b.sessions.list().find((x) => x.id === s.id)?.state === 'running';
      },
      15_000,
      'host B to adopt the session once its lease lapsed',
    );
    const adopted = b.sessions.get(s.id);
    expect(adopted.metadata().containment).toBe('cgroup');
    expect(escapees()).toHaveLength(1);
    await adopted.kill();
    expect(escapees()).toEqual([]);
    expect(leakedCgroups()).toEqual([]);
  });
  it("killServer() ends every pane's escapee, also one another host started, and removes their cgroups", async () => {
    dir = mkdtempSync(join(tmpdir(), 'pm-rcg-'));
    const a = await openHost('host-a');
    const b = await openHost('host-b');
    for (const host of [a, b]) {
      const s = await host.sessions.start({ shell: true, command: ESCAPEE, pty: true, lifetime: 'detached' });
      expect(s.metadata().containment).toBe('cgroup');
    }
    await waitFor(() => escapees().length === 2, 10_000, 'both escapees to be up');
    expect(leakedCgroups()).toHaveLength(2);
    await a.tmux.killServer();
    expect({ left: escapees(), cgroups: leakedCgroups() }).toEqual({ left: [], cgroups: [] });
    expect(await b.tmux.listSessions()).toEqual([]);
  });
});
