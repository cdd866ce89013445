// 'auto' containment picks, in order: a cgroup of procmux's own, a delegated systemd user
// scope, a pid namespace, the marker sweep — each asked only when the one before said no.
// Every branch with effects injected; then on this host (root in a container, no user
// manager) the real effects, which must pick what they picked before the scope route existed.
import { ProcmuxError } from '@procmux/core-types';
import {
  hostCgroupLayout,
  hostPidNamespaceSupport,
  hostSystemdScopeSupport,
  SessionCgroup,
} from '@procmux/supervisor';
import { assertNoLeakedProcesses, disposeAfterEach, makeWorkspace } from '@procmux/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { type ContainOptions, containSession } from '../src/backends/containment.js';
import { createProcessSessions, type ProcessSessions } from '../src/index.js';

const workspace = makeWorkspace();
const track = disposeAfterEach<ProcessSessions>();
afterAll(() => assertNoLeakedProcesses());

/** A host whose every step is injected; `asked` records which were consulted, in order. */
function host(answers: { cgroup: boolean; scope: boolean; pidns: boolean }) {
  const asked: string[] = [];
  const made = { dirs: ['/cg/procmux-7-s'] } as unknown as SessionCgroup;
  const options: ContainOptions = {
    mode: 'auto',
    id: 's',
    limits: {},
    native: true,
    platform: 'linux',
    hostPid: 7,
    layout: () => ({ unified: '/cg', v1: {} }),
    create: () => {
      asked.push('cgroup');
      if (answers.cgroup) return made;
      throw new ProcmuxError('ERR_PROCESS_UNSUPPORTED', 'a cgroup for the session could not be made: EACCES');
    },
    systemdScopeSupport: async () => {
      asked.push('scope');
      return answers.scope ? { ok: true } : { ok: false, reason: 'no user systemd manager' };
    },
    pidNamespaceSupport: async () => {
      asked.push('pidns');
      return answers.pidns
        ? { ok: true, spec: { userNamespace: true } }
        : { ok: false, reason: 'user namespaces are refused' };
    },
  };
  return { options, asked, made };
}

describe("'auto' containment, effects injected", () => {
  it('a cgroup where one can be made; nothing else is asked', async () => {
    const { options, asked, made } = host({ cgroup: true, scope: true, pidns: true });
    expect(await containSession(options)).toEqual({ containment: 'cgroup', cgroup: made, limits: {} });
    expect(asked).toEqual(['cgroup']);
  });

  it("else the user scope `procmux-<host pid>-<id>` (containment 'cgroup', no cgroup of procmux's own)", async () => {
    const { options, asked } = host({ cgroup: false, scope: true, pidns: true });
    expect(await containSession(options)).toEqual({
      containment: 'cgroup',
      cgroup: undefined,
      systemdScope: { unit: 'procmux-7-s' },
      limits: {},
    });
    expect(asked).toEqual(['cgroup', 'scope']);
  });

  it('else a pid namespace, else the marker sweep', async () => {
    const namespaced = host({ cgroup: false, scope: false, pidns: true });
    expect(await containSession(namespaced.options)).toEqual({
      containment: 'pid-namespace',
      cgroup: undefined,
      pidNamespace: { userNamespace: true },
      limits: {},
    });
    expect(namespaced.asked).toEqual(['cgroup', 'scope', 'pidns']);
    const bare = host({ cgroup: false, scope: false, pidns: false });
    expect(await containSession(bare.options)).toEqual({
      containment: 'marker',
      cgroup: undefined,
      limits: {},
    });
    expect(bare.asked).toEqual(['cgroup', 'scope', 'pidns']);
  });

  it("never the scope for a sandboxed session (bwrap's namespace holds it), a host backend, or in 'cgroup' mode", async () => {
    const sandboxed = host({ cgroup: false, scope: true, pidns: true });
    expect((await containSession({ ...sandboxed.options, sandboxed: true })).containment).toBe(
      'pid-namespace',
    );
    expect(sandboxed.asked).toEqual(['cgroup']);
    const backend = host({ cgroup: true, scope: true, pidns: true });
    expect(await containSession({ ...backend.options, native: false })).toEqual({
      containment: 'marker',
      cgroup: undefined,
      limits: {},
    });
    expect(backend.asked).toEqual([]);
    const strict = host({ cgroup: false, scope: true, pidns: true });
    await expect(containSession({ ...strict.options, mode: 'cgroup' })).rejects.toMatchObject({
      code: 'ERR_PROCESS_UNSUPPORTED',
    });
    expect(strict.asked).toEqual(['cgroup']);
  });

  it('limits asked for where no cgroup can be made fail the start; the scope is not tried for them', async () => {
    const { options, asked } = host({ cgroup: false, scope: true, pidns: true });
    await expect(containSession({ ...options, limits: { pids: 8 } })).rejects.toMatchObject({
      code: 'ERR_PROCESS_UNSUPPORTED',
    });
    expect(asked).toEqual(['cgroup']);
  });

  it('off Linux nothing is asked: the marker sweep', async () => {
    for (const platform of ['darwin', 'win32'] as const) {
      const { options, asked } = host({ cgroup: true, scope: true, pidns: true });
      expect((await containSession({ ...options, platform })).containment).toBe('marker');
      expect(asked).toEqual([]);
    }
  });
});

describe('on this host, with the real effects', () => {
  const canCgroup = (() => {
    const layout = process.platform === 'linux' ? hostCgroupLayout() : undefined;
    if (!layout) return false;
    try {
      void SessionCgroup.create({ layout, id: `probe-choice-${process.pid}` }).close();
      return true;
    } catch {
      return false;
    }
  })();

  it("'auto' picks what it picked before the scope route: a cgroup where root can make one", async () => {
    const scope = await hostSystemdScopeSupport();
    if (process.platform === 'linux' && process.geteuid?.() === 0)
      expect(scope).toEqual({
        ok: false,
        reason: 'root makes cgroups beneath its own; no user scope is needed',
      });
    const s = await track(createProcessSessions({ cwd: workspace })).start({ command: 'true' });
    await s.wait({ timeoutMs: 10_000 });
    const pidns = await hostPidNamespaceSupport();
    expect(s.metadata().containment).toBe(canCgroup ? 'cgroup' : pidns.ok ? 'pid-namespace' : 'marker');
    // A cgroup of procmux's own (the scope route would have none): its usage is read.
    if (canCgroup) expect(s.metadata().usage?.cpuMs).toEqual(expect.any(Number));
  });

  it('and, where no cgroup can be made, goes on past the scope to a pid namespace (or the marker)', async () => {
    const held = await containSession({
      mode: 'auto',
      id: `choice-${process.pid}`,
      limits: {},
      native: true,
      layout: () => undefined,
    });
    const scope = await hostSystemdScopeSupport();
    const pidns = await hostPidNamespaceSupport();
    expect(held.systemdScope === undefined).toBe(!scope.ok);
    if (!scope.ok) expect(held.containment).toBe(pidns.ok ? 'pid-namespace' : 'marker');
  });
});
