// Kernel-held sessions: what metadata() says about containment and usage, the escapee a tree
// kill cannot find (0 left after kill() and after dispose() with a cgroup; the marker sweep's
// blind spot shown beside it), limits refused where they cannot hold, and the OOM death.

import { mkdirSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { isProcmuxError, type Logger, ProcmuxError } from '@procmux/core-types';
import { hostCgroupLayout, SessionCgroup } from '@procmux/supervisor';
import {
  descendantsOf,
  disposeAfterEach,
  makeWorkspace,
  processTable,
  procmuxCgroups,
  rejectsWith,
  removeCgroup,
  thrownBy,
  throwsWith,
  waitFor,
} from '@procmux/test-utils';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { containSession } from '../src/backends/containment.js';
import { createMemoryRecoveryStores, createProcessSessions, type ProcessSessions } from '../src/index.js';

const workspace = makeWorkspace();
const track = disposeAfterEach<ProcessSessions>();
const counts: Record<string, number> = {};
afterAll(() => console.log(`escapees left: ${JSON.stringify(counts)}`));

const cannot = (() => {
  const layout = process.platform === 'linux' ? hostCgroupLayout() : undefined;
  if (!layout) return 'no cgroup hierarchy visible';
  try {
    void SessionCgroup.create({ layout, id: `probe-sessions-${process.pid}` }).close();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
})();
if (cannot) console.info(`[procmux] cgroup session tests not run: ${cannot}`);

function tag(): string {
  return `30${Math.floor(Math.random() * 1e6)}.${Math.floor(Math.random() * 1e6)}`;
}
const escapee = (sleep: string) => `(setsid sh -c 'exec env -i sleep ${sleep}' &); echo up; sleep 60`;
function running(text: string): number[] {
  return processTable()
    .filter((p) => p.state !== 'Z' && p.command === text)
    .map((p) => p.pid);
}
/** Waits until the escapee runs and is no descendant of `root` any more (its subshell exited). */
function escaped(root: number, sleep: string): Promise<unknown> {
  return waitFor(
    () => {
      const [pid] = running(`sleep ${sleep}`);
      return pid !== undefined && !descendantsOf(root, processTable()).some((p) => p.pid === pid);
    },
    10_000,
    'the escapee to leave the tree',
  );
}
/** Counts the escapees of `sleep` still alive, kills them (a marker escapee no teardown finds). */
function countAndClear(name: string, sleep: string): number {
  const left = running(`sleep ${sleep}`);
  counts[name] = left.length;
  for (const pid of left) process.kill(pid, 'SIGKILL');
  return left.length;
}

describe.skipIf(cannot !== undefined)('a cgroup per session (Linux)', () => {
  it('says cgroup in metadata and reports usage while it runs and after it ended', async () => {
    const sessions = track(createProcessSessions({ cwd: workspace }));
    const s = await sessions.start({
      command: 'python3',
      args: ['-c', 'x = bytearray(32 << 20); print("ok")'],
    });
    await s.wait({ timeoutMs: 20_000 });
    const meta = s.metadata();
    expect(meta.containment).toBe('cgroup');
    expect(meta.resourceLimits).toEqual({});
    expect(meta.usage?.memoryPeakBytes).toBeGreaterThanOrEqual(32 << 20);
    expect(meta.usage?.cpuMs).toBeGreaterThanOrEqual(0);
    expect(meta.usage?.pidsPeak).toBeGreaterThanOrEqual(1);
  });

  // A start whose intent write fails once its cgroup exists, with a cgroup made inside it there
  // (someone else's doing) that keeps it from being removed; the blocker is removed after.
  async function failedStartLeavingCgroup(logger: Logger): Promise<void> {
    const stores = createMemoryRecoveryStores();
    let blocker: string | undefined;
    const sessions = track(
      createProcessSessions({
        cwd: workspace,
        logger,
        leases: stores.leases,
        ownerId: 'a',
        checkpoints: {
          get: (ns, key) => stores.checkpoints.get(ns, key),
          list: (ns) => stores.checkpoints.list(ns),
          delete: (ns, key, version) => stores.checkpoints.delete(ns, key, version),
          compareAndSet: async (_ns, write) => {
            const dir = procmuxCgroups().find((c) =>
              c.dir.endsWith(`/procmux-${process.pid}-${write.key}`),
            )!.dir;
            blocker = join(dir, 'blocker');
            mkdirSync(blocker);
            throw new Error('the store is down');
          },
        },
      }),
    );
    try {
      await rejectsWith(sessions.start({ command: 'true' }), 'ERR_RECOVERY_UNKNOWN');
    } finally {
      if (blocker) {
        rmdirSync(blocker);
        removeCgroup(join(blocker, '..'));
      }
    }
  }

  it('a start that fails after its cgroup was made removes it, and tells the logger when it cannot', async () => {
    const warnings: { message: string; fields: Readonly<Record<string, unknown>> | undefined }[] = [];
    await failedStartLeavingCgroup({ warn: (message, fields) => warnings.push({ message, fields }) });
    expect(warnings).toEqual([
      {
        message: expect.stringMatching(/whose start failed, could not be emptied and removed/),
        fields: { sessionId: expect.any(String), error: expect.stringContaining('procmux-') },
      },
    ]);
  });

  it("a logger that throws on that warning changes neither the start's error nor loses the warning", async () => {
    const consoleWarn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      await failedStartLeavingCgroup({
        warn: () => {
          throw new Error('the log sink is full');
        },
      });
      expect(consoleWarn.mock.calls).toEqual([
        [
          expect.stringMatching(/whose start failed, could not be emptied and removed/),
          expect.objectContaining({
            error: expect.stringContaining('procmux-'),
            loggerThrew: 'the log sink is full',
          }),
        ],
      ]);
    } finally {
      consoleWarn.mockRestore();
    }
  });

  it('refuses a logger without a warn function before anything starts', () => {
    for (const logger of [console.log, { warn: 'loud' }, 'console']) {
      const error = throwsWith(
        () => createProcessSessions({ cwd: workspace, logger: logger as never }),
        'ERR_INVALID_OPTION',
      );
      expect(error).toMatchObject({
        message: expect.stringMatching(
          /^logger must be an object with a warn\(message, fields\) function \(got /,
        ),
        details: { option: 'logger' },
      });
    }
  });

  it('leaves no escapee that cleared its environment after kill()', async () => {
    const sessions = track(createProcessSessions({ cwd: workspace }));
    const sleep = tag();
    const s = await sessions.start({ command: escapee(sleep), shell: true });
    await escaped(s.pid!, sleep);
    await s.kill();
    expect(countAndClear('cgroup kill()', sleep)).toBe(0);
  });

  it('leaves no escapee after dispose()', async () => {
    const sessions = createProcessSessions({ cwd: workspace });
    const sleep = tag();
    const s = await sessions.start({ command: escapee(sleep), shell: true });
    await escaped(s.pid!, sleep);
    await sessions.dispose();
    expect(countAndClear('cgroup dispose()', sleep)).toBe(0);
  });

  it("the marker sweep's blind spot, for comparison: containment 'marker' leaves the escapee", async () => {
    const sessions = createProcessSessions({ cwd: workspace, containment: 'marker' });
    const sleep = tag();
    const s = await sessions.start({ command: escapee(sleep), shell: true });
    expect(s.metadata()).toMatchObject({ containment: 'marker', usage: null });
    await escaped(s.pid!, sleep);
    await sessions.dispose();
    expect(countAndClear('marker dispose()', sleep)).toBe(1);
  });

  it('ends a session over its memory limit with an OOM kill the usage counts; the registry goes on', async () => {
    const sessions = track(
      createProcessSessions({ cwd: workspace, resourceLimits: { memoryBytes: 64 << 20 } }),
    );
    const hog = await sessions.start({ command: 'python3', args: ['-c', 'x = bytearray(200 << 20)'] });
    const end = await hog.wait({ timeoutMs: 30_000 });
    expect(end).toMatchObject({ state: 'killed', signal: 'SIGKILL' });
    expect(hog.metadata().usage?.oomKills).toBeGreaterThanOrEqual(1);
    expect(hog.metadata().resourceLimits).toEqual({ memoryBytes: 64 << 20 });
    const next = await sessions.start({
      command: 'echo still here',
      shell: true,
      resourceLimits: { memoryBytes: 128 << 20 },
    });
    expect(await next.wait({ timeoutMs: 10_000 })).toMatchObject({ state: 'exited', exitCode: 0 });
    expect(next.metadata().resourceLimits).toEqual({ memoryBytes: 128 << 20 });
  });
});

describe('limits that cannot hold are refused, never dropped', () => {
  it('refuses resourceLimits with containment marker, at the registry and at a start', async () => {
    const atRegistry = thrownBy(() =>
      createProcessSessions({ cwd: workspace, containment: 'marker', resourceLimits: { pids: 10 } }),
    );
    expect(isProcmuxError(atRegistry, 'ERR_PROCESS_UNSUPPORTED')).toBe(true);
    expect((atRegistry as Error).message).toContain("containment is 'marker'");
    const sessions = track(createProcessSessions({ cwd: workspace, containment: 'marker' }));
    await expect(sessions.start({ command: 'true', resourceLimits: { pids: 10 } })).rejects.toMatchObject({
      code: 'ERR_PROCESS_UNSUPPORTED',
    });
  });

  it('checks each field and refuses unknown ones', () => {
    for (const [value, option] of [
      [{ memoryBytes: 1024 }, 'resourceLimits.memoryBytes'],
      [{ pids: 0 }, 'resourceLimits.pids'],
      [{ cpuPercent: 1.5 }, 'resourceLimits.cpuPercent'],
      [{ memory: 1 }, 'resourceLimits.memory'],
    ] as const) {
      const error = thrownBy(() => createProcessSessions({ cwd: workspace, resourceLimits: value as never }));
      expect(isProcmuxError(error, 'ERR_INVALID_OPTION')).toBe(true);
      expect((error as ProcmuxError).details?.option).toBe(option);
    }
  });
});

describe('containSession (effects injected: every host kind here)', () => {
  const base = { id: 's', native: true, platform: 'linux' as const };
  const none = async () => ({ ok: false as const, reason: 'user namespaces are refused' });
  const fails = () => {
    throw new ProcmuxError('ERR_PROCESS_UNSUPPORTED', 'a cgroup for the session could not be made: EACCES');
  };

  it("falls back to the marker sweep in 'auto' where no cgroup nor pid namespace can be made", async () => {
    const layout = () => ({ unified: '/cg', v1: {} });
    expect(
      await containSession({
        ...base,
        mode: 'auto',
        limits: {},
        layout,
        create: fails,
        systemdScopeSupport: none,
        pidNamespaceSupport: none,
      }),
    ).toEqual({
      containment: 'marker',
      cgroup: undefined,
      limits: {},
    });
  });

  it("fails instead where a cgroup is required ('cgroup' mode, or limits asked for)", async () => {
    const layout = () => ({ unified: '/cg', v1: {} });
    for (const options of [
      { mode: 'cgroup' as const, limits: {} },
      { mode: 'auto' as const, limits: { pids: 5 } },
    ]) {
      await expect(containSession({ ...base, ...options, layout, create: fails })).rejects.toMatchObject({
        code: 'ERR_PROCESS_UNSUPPORTED',
      });
    }
  });

  it('names the platform where cgroups do not exist, and the backend for a sandbox or host PTY backend', async () => {
    await expect(
      containSession({ ...base, platform: 'darwin', mode: 'auto', limits: { pids: 5 } }),
    ).rejects.toThrow('cgroups are Linux only (this host: darwin)');
    expect((await containSession({ ...base, platform: 'win32', mode: 'auto', limits: {} })).containment).toBe(
      'marker',
    );
    await expect(containSession({ ...base, native: false, mode: 'cgroup', limits: {} })).rejects.toThrow(
      'not a sandbox or a host PTY backend',
    );
  });
});
